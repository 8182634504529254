import { copyFileSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { EMBEDDED_DATABASE, openGeoLookup, type GeoLookup } from '../../../src/audience/geo-lookup.js';
import { ConfigError, loadConfig } from '../../../src/config.js';

/** The package's IPv6-only file: a valid MMDB that answers differently from the embedded one (no IPv4 at all). */
const IPV6_ONLY_DATABASE = path.join(path.dirname(EMBEDDED_DATABASE), 'dbip-country-ipv6.mmdb');

const silent = pino({ level: 'silent' });
const dir = mkdtempSync(path.join(tmpdir(), 'qroute-geo-'));
const opened: GeoLookup[] = [];
afterAll(() => {
  for (const lookup of opened) lookup.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(options: Parameters<typeof openGeoLookup>[0]): GeoLookup {
  const lookup = openGeoLookup(options);
  opened.push(lookup);
  return lookup;
}

/** A logger whose lines the test can read. */
function recordingLogger(): { logger: pino.Logger; lines: { level: number; msg: string; reason?: string }[] } {
  const lines: { level: number; msg: string; reason?: string }[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Writes `bytes` beside `target` and renames it over, the way geoipupdate and most deploy tools replace a file. */
function replaceByRename(target: string, bytes: Buffer | string): void {
  const next = `${target}.next`;
  writeFileSync(next, bytes);
  renameSync(next, target);
}

describe('the embedded database (DB-IP Lite Country)', () => {
  const geo = open({ logger: silent });

  it('places well-known public addresses in their countries, IPv4 and IPv6', () => {
    // What the shipped DB-IP file says: Google's resolver, heise.de (Hanover), a Japanese host; NTT's and Google's
    // Frankfurt IPv6 ranges.
    expect(geo.locate('8.8.8.8')).toEqual({ country: 'US', region: null, city: null });
    expect(geo.locate('193.99.144.80').country).toBe('DE');
    expect(geo.locate('210.140.92.183').country).toBe('JP');
    expect(geo.locate('2001:218::1').country).toBe('JP');
    expect(geo.locate('2a00:1450:4001:80b::200e').country).toBe('DE');
    expect(geo.locate('2A00:1450:4001:80B::200E').country).toBe('DE');
  });

  it('reads an IPv4-mapped IPv6 address (a dual-stack socket) as the IPv4 address', () => {
    expect(geo.locate('::ffff:193.99.144.80').country).toBe('DE');
    expect(geo.locate('::FFFF:8.8.8.8').country).toBe('US');
    expect(geo.locate('::ffff:c163:9050').country).toBe('DE');
  });

  it('has no place for private, loopback, link-local, shared and documentation addresses', () => {
    for (const address of [
      '10.1.2.3', '172.16.0.1', '192.168.1.20', '127.0.0.1', '169.254.10.10', '100.64.0.1', '0.0.0.0',
      '192.0.2.1', '198.51.100.7', '203.0.113.9', '224.0.0.1', '255.255.255.255',
      '::1', '::', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '::ffff:10.0.0.1',
    ]) {
      expect(geo.locate(address), address).toEqual({ country: null, region: null, city: null });
    }
  });

  it('has no place for anything that is not an address, and never throws', () => {
    for (const text of [
      '', ' ', 'unknown', 'localhost', '8.8.8', '8.8.8.8.8', '08.8.8.8', '256.1.1.1', '0x8.8.8.8', '134744072',
      '8.8.8.8/32', '1::2::3', 'g::1', ':::', '8.8.8.8\u0000', 'x'.repeat(10_000), '2001:218::1'.repeat(5),
    ]) {
      expect(geo.locate(text), text).toEqual({ country: null, region: null, city: null });
    }
  });

  it('reports what it is reading', () => {
    expect(geo.database()).toMatchObject({ path: EMBEDDED_DATABASE, embedded: true, type: 'country ipvAll' });
  });
});

describe('GEOIP_DATABASE, an operator file', () => {
  it('is read from the configured path (config resolves it to an absolute path)', () => {
    expect(loadConfig({}).geoipDatabase).toBeUndefined();
    expect(loadConfig({ GEOIP_DATABASE: ' /srv/geo/GeoLite2-City.mmdb ' }).geoipDatabase).toBe('/srv/geo/GeoLite2-City.mmdb');
    expect(loadConfig({ GEOIP_DATABASE: 'geo/city.mmdb' }).geoipDatabase).toBe(path.resolve('geo/city.mmdb'));

    const file = path.join(dir, 'ipv6-only.mmdb');
    copyFileSync(IPV6_ONLY_DATABASE, file);
    const geo = open({ path: file, logger: silent });
    expect(geo.locate('2001:218::1').country).toBe('JP');
    expect(geo.locate('8.8.8.8').country).toBeNull();
    expect(geo.database()).toMatchObject({ path: file, embedded: false, type: 'country ipv6' });
  });

  it('refuses to start on a missing, compressed or broken file, saying which setting and why', () => {
    expect(() => open({ path: path.join(dir, 'absent.mmdb'), logger: silent })).toThrow(ConfigError);
    expect(() => open({ path: path.join(dir, 'absent.mmdb'), logger: silent })).toThrow(/GEOIP_DATABASE .*absent\.mmdb.* cannot be read: ENOENT/);

    const gzipped = path.join(dir, 'GeoLite2-City.mmdb.gz');
    writeFileSync(gzipped, gzipSync(Buffer.from('not really a database')));
    expect(() => open({ path: gzipped, logger: silent })).toThrow(/gzip-compressed; extract the \.mmdb/);

    const text = path.join(dir, 'readme.mmdb');
    writeFileSync(text, 'This is not a database.\n');
    expect(() => open({ path: text, logger: silent })).toThrow(/GEOIP_DATABASE .* is not a usable MaxMind DB \(\.mmdb\) file/);
  });

  it('answers from a replacement without a restart, and keeps the loaded one when a replacement is broken', async () => {
    const file = path.join(dir, 'country.mmdb');
    copyFileSync(EMBEDDED_DATABASE, file);
    const { logger, lines } = recordingLogger();
    const geo = open({ path: file, logger, checkIntervalMs: 20 });
    expect(geo.locate('8.8.8.8').country).toBe('US');

    const warnings = () => lines.filter((line) => line.level === 40);
    replaceByRename(file, 'MaxMind? no: an error page saved as the download');
    await expect.poll(() => warnings().length).toBe(1);
    expect(geo.locate('8.8.8.8').country).toBe('US');
    expect(geo.locate('2001:218::1').country).toBe('JP');

    // Cut short in the middle, its metadata (at the end of the file) intact: the tree it describes does not fit.
    const embedded = readFileSync(EMBEDDED_DATABASE);
    replaceByRename(file, Buffer.concat([embedded.subarray(0, 1_000_000), embedded.subarray(-4_096)]));
    await expect.poll(() => warnings().length).toBe(2);
    expect(warnings().map((line) => line.msg)).toEqual([
      'geo database file changed but cannot be used; the one loaded before keeps answering',
      'geo database file changed but cannot be used; the one loaded before keeps answering',
    ]);
    expect(warnings()[1]!.reason).toMatch(/does not fit|truncated/);
    expect(geo.locate('8.8.8.8').country).toBe('US');
    expect(geo.locate('2001:218::1').country).toBe('JP');

    // The IPv6-only file has no IPv4 networks: 8.8.8.8 losing its country shows the new file is the one answering.
    replaceByRename(file, readFileSync(IPV6_ONLY_DATABASE));
    await expect.poll(() => geo.locate('8.8.8.8').country).toBeNull();
    expect(geo.locate('2001:218::1').country).toBe('JP');
    expect(geo.database().type).toBe('country ipv6');
    expect(lines.map((line) => line.msg)).toContain('geo database reloaded');
  });
});
