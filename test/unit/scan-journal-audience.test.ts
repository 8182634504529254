import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { crc32 } from 'node:zlib';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { prepareScanBatch, type ScanEvent } from '../../src/redirect/scan-batch.js';
import { ScanJournal } from '../../src/redirect/scan-journal.js';

const silent = pino({ level: 'silent' });
const DAY = 86_400_000;
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

const scan = (overrides: Partial<ScanEvent> = {}): ScanEvent => ({
  codeId: 'qr_1', accountId: 'acc_1', at: new Date('2026-11-27T09:00:00.123Z'), device: 'mobile', os: 'iOS', browser: 'Mobile Safari',
  destinationUrl: 'https://example.com/', referrerHost: null, country: null, region: null, city: null, language: null, visitor: null, bot: false,
  ruleId: null, variant: null, ...overrides,
});

/** A record as the version before audience analytics wrote it ("QSJ2": stamp, then a payload whose scans end at `bot`). */
function previousVersionRecord(id: string, scans: ScanEvent[]): Buffer {
  const payload = Buffer.from(JSON.stringify({
    id,
    scans: scans.map((s) => [s.codeId, s.accountId, s.at.getTime(), s.device, s.os, s.browser, s.destinationUrl, s.referrerHost, s.bot ? 1 : 0]),
  }));
  const body = Buffer.alloc(8 + payload.length);
  body.writeDoubleLE(Date.now(), 0);
  payload.copy(body, 8);
  const header = Buffer.alloc(12);
  header.writeUInt32LE(0x324a5351, 0);
  header.writeUInt32LE(body.length, 4);
  header.writeUInt32LE(crc32(body), 8);
  return Buffer.concat([header, body]);
}

describe('a journaled batch', () => {
  it('replays with its audience and routing as formed, and a record of a previous version replays with none', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-journal-audience-'));
    dirs.push(dir);
    const audience = prepareScanBatch([
      scan({ country: 'DE', region: 'Bavaria', city: 'Munich', language: 'de', visitor: 'a'.repeat(32) }),
      scan({ country: 'DE', region: 'Bavaria', city: 'Munich', language: 'de', visitor: 'a'.repeat(32) }),
      scan({ country: null, language: 'fr', visitor: null }),
      scan({ country: 'FR', language: 'fr', ruleId: 'rul_weekend', visitor: 'b'.repeat(32) }),
      scan({ country: 'FR', language: 'fr', variant: 1, visitor: 'b'.repeat(32) }),
    ]);
    // The scans' own day (their visitors are kept while it lasts), whatever day the test runs.
    const sameDay = () => Date.parse('2026-11-27T09:30:00Z');
    const written = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: sameDay }, silent);
    expect(await written.append([audience])).toBe(true);
    await written.close();
    await fs.writeFile(path.join(dir, 'previous.journal'), previousVersionRecord('scb_previous', [scan(), scan({ referrerHost: 'news.example' })]));

    const reader = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: sameDay }, silent);
    const batches = [];
    for (const file of await reader.claimAbandoned()) batches.push(...(await reader.read(file)).batches);
    await reader.close();
    const byId = new Map(batches.map((batch) => [batch.id, batch]));
    // The same statement parameter, byte for byte: the batch is written as it was formed.
    expect(byId.get(audience.id)?.rows).toBe(audience.rows);
    expect(byId.get(audience.id)?.scans).toEqual(audience.scans);
    const previous = byId.get('scb_previous')!;
    expect(previous.scans.map(({ country, region, city, language, visitor, ruleId, variant }) => ({ country, region, city, language, visitor, ruleId, variant }))).toEqual([
      { country: null, region: null, city: null, language: null, visitor: null, ruleId: null, variant: null },
      { country: null, region: null, city: null, language: null, visitor: null, ruleId: null, variant: null },
    ]);
  });
});

describe('a journaled visitor hash', () => {
  const today = Date.UTC(2026, 10, 28, 0, 5); // five minutes into the day: the day before has ended, grace included
  const visitorOf = (letter: string) => Buffer.from(letter.repeat(16)).toString('hex'); // 32 hex digits, as visitorHash makes

  async function journalFrom(appendedAt: number, batches: ReturnType<typeof prepareScanBatch>[]) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-journal-visitors-'));
    dirs.push(dir);
    const written = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: () => appendedAt }, silent);
    expect(await written.append(batches)).toBe(true);
    await written.close();
    return dir;
  }

  it('is not replayed once its day has ended: the scan is written without it (unique not known), today\'s keep theirs', async () => {
    const yesterday = prepareScanBatch([
      scan({ at: new Date(today - 8 * 60_000), visitor: visitorOf('Y') }),
      scan({ at: new Date(today - 6 * 60_000), visitor: visitorOf('X') }),
      scan({ at: new Date(today - 30_000), visitor: visitorOf('T') }),
    ]);
    const dir = await journalFrom(today - 20_000, [yesterday]);
    const reader = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: () => today }, silent);
    const batches = [];
    for (const file of await reader.claimAbandoned()) batches.push(...(await reader.read(file)).batches);
    await reader.close();
    expect(batches.map((batch) => batch.id)).toEqual([yesterday.id]);
    // 23:57 and 23:59 of the day before are past its end and grace; 00:04:30 is today's (read at 00:05).
    expect(batches[0]!.scans.map((s) => s.visitor)).toEqual([null, null, visitorOf('T')]);
    expect(batches[0]!.rows).not.toContain(visitorOf('Y'));
  });

  it('is not kept in the records set aside as too old to replay', async () => {
    const old = prepareScanBatch([scan({ at: new Date(today - 40 * DAY), visitor: visitorOf('Q') })]);
    const dir = await journalFrom(today - 40 * DAY, [old]);
    const reader = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: () => today }, silent);
    let expiredFile: string | undefined;
    for (const file of await reader.claimAbandoned()) expiredFile ??= (await reader.read(file)).expiredFile;
    await reader.close();
    const setAside = await fs.readFile(expiredFile!, 'utf8');
    expect(setAside).toContain(old.scans[0]!.codeId); // the scan is there for the operator to compare
    expect(setAside).not.toContain(visitorOf('Q'));
  });
});
