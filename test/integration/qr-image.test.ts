import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode, createTestTypedCode } from '../support/factories.js';
import { readQrPng } from '../support/design-decode.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;
let code: { id: string; slug: string; shortUrl: string };

// A host long enough that upper-casing matters: at ecc M the lower-case URL needs version 3, upper-case fits 2.
useTestApp((started) => ({ database, app } = started), { siteUrl: 'https://qr.example.com' });
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
  code = await createTestCode(owner);
});

async function image(query: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${app.apiUrl}/qrcodes/${code.id}/image${query}`, {
    headers: { Authorization: `Bearer ${owner.apiKey}`, ...headers },
  });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

/** Reads the module matrix back out of the SVG path (`M x y h n m dx dy h n …`) and decodes it as pixels. */
function decodeSvg(svg: string): string | undefined {
  const viewBox = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  const path = /<path stroke="#000000" d="([^"]+)"/.exec(svg);
  if (!viewBox || !path) return undefined;
  const modules = Number(viewBox[1]);
  const dark = new Set<string>();
  let x = 0;
  let y = 0;
  for (const [, command, a, b] of path[1]!.matchAll(/([MmHh])(-?[\d.]+)(?:\s(-?[\d.]+))?/g)) {
    const first = Number(a);
    if (command === 'M') [x, y] = [first, Number(b)];
    else if (command === 'm') [x, y] = [x + first, y + Number(b)];
    else {
      for (let i = 0; i < first; i++) dark.add(`${x + i},${Math.floor(y)}`);
      x += first;
    }
  }
  const scale = 8;
  const width = modules * scale;
  const png = new PNG({ width, height: width });
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      const value = dark.has(`${Math.floor(px / scale)},${Math.floor(py / scale)}`) ? 0 : 255;
      png.data.set([value, value, value, 255], (py * width + px) * 4);
    }
  }
  return readQrPng(PNG.sync.write(png));
}

describe('GET /qrcodes/{id}/image', () => {
  const expectedContent = () => code.shortUrl.toUpperCase(); // SITE_URL has no path: alphanumeric mode

  it.each(['L', 'M', 'Q', 'H'])('renders a PNG that decodes to the short URL at ecc %s and several sizes', async (ecc) => {
    for (const size of [64, 300, 1024]) {
      const { res, bytes } = await image(`?format=png&ecc=${ecc}&size=${size}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      const png = PNG.sync.read(bytes);
      // Exactly the size asked for: whole pixels per module, the spare pixels in the quiet zone.
      expect([png.width, png.height]).toEqual([size, size]);
      expect(readQrPng(bytes)).toBe(expectedContent());
    }
  });

  it.each(['L', 'M', 'Q', 'H'])('renders an SVG (the default) that decodes to the short URL at ecc %s', async (ecc) => {
    for (const size of [128, 512]) {
      const { res, bytes } = await image(`?ecc=${ecc}&size=${size}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      const svg = bytes.toString('utf8');
      expect(svg).toContain(`width="${size}"`);
      expect(decodeSvg(svg)).toBe(expectedContent());
    }
  });

  it('decodes to a URL that redirects like the short URL', async () => {
    const { bytes } = await image('?format=png');
    const decoded = readQrPng(bytes)!;
    const path = new URL(decoded).pathname; // "/R/<SLUG>"
    const res = await fetch(`${app.origin}${path}`, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X)' } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://example.com/');
  });

  it('uses the smallest QR version: the upper-cased URL fits version 2 at ecc M (lower case would need 3)', async () => {
    const { bytes } = await image('?margin=0');
    expect(bytes.toString()).toContain('viewBox="0 0 25 25"'); // version 2 = 25 × 25 modules
  });

  it('gives byte-identical images and a stable ETag for the same request, and answers 304 to If-None-Match', async () => {
    const first = await image('?format=png&size=256');
    const again = await image('?format=png&size=256');
    expect(again.bytes.equals(first.bytes)).toBe(true);
    const etag = first.res.headers.get('etag')!;
    expect(again.res.headers.get('etag')).toBe(etag);
    expect(first.res.headers.get('cache-control')).toBe('private, no-cache');
    const notModified = await image('?format=png&size=256', { 'If-None-Match': etag });
    expect(notModified.res.status).toBe(304);
    const other = await image('?format=png&size=512');
    expect(other.res.headers.get('etag')).not.toBe(etag);
  });

  it('adds the quiet zone asked for', async () => {
    const withMargin = (await image('?margin=4')).bytes.toString();
    const without = (await image('?margin=0')).bytes.toString();
    expect(withMargin).toContain('viewBox="0 0 33 33"');
    expect(without).toContain('viewBox="0 0 25 25"');
  });

  it('lays a PDF (or an EPS) out for a print shop: the size in millimetres, the bleed around it, crop marks outside it', async () => {
    const { res, bytes } = await image('?format=pdf&size_mm=40&bleed_mm=3&crop_marks=true&cmyk=true');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const pdf = bytes.toString('latin1');
    const numbers = (name: string) => new RegExp(`/${name} \\[([^\\]]+)\\]`).exec(pdf)![1]!.trim().split(/\s+/).map(Number);
    const mm = (points: number) => Math.round((points / 72) * 25.4 * 100) / 100;
    const [trimLeft, , trimRight] = numbers('TrimBox');
    expect(mm(trimRight! - trimLeft!)).toBe(40);
    expect(mm(trimLeft! - numbers('BleedBox')[0]!)).toBe(3);
    expect(mm(numbers('BleedBox')[0]!)).toBe(10); // the crop marks' margin
    expect(mm(numbers('MediaBox')[2]!)).toBe(40 + 2 * 3 + 2 * 10);

    // The same page as EPS, for layout programs.
    const eps = await image('?format=eps&size_mm=40&bleed_mm=3&crop_marks=true');
    expect(eps.res.status).toBe(200);
    expect(eps.res.headers.get('content-type')).toBe('application/postscript');
    const text = eps.bytes.toString('latin1');
    expect(text.startsWith('%!PS-Adobe-3.0 EPSF-3.0\n')).toBe(true);
    expect(mm(Number(/%%HiResBoundingBox: 0 0 ([\d.]+)/.exec(text)![1]))).toBe(40 + 2 * 3 + 2 * 10);
  });

  it.each(['format=gif', 'size=10', 'size=5000', 'margin=-1', 'margin=17', 'ecc=X', 'size=abc', 'format=pdf&size_mm=5', 'format=pdf&bleed_mm=21', 'format=pdf&cmyk=maybe', 'format=png&size_mm=50', 'bleed_mm=3'])(
    'answers 400 invalid_query for %s',
    async (query) => {
      const res = await rawRequest(app, `/qrcodes/${code.id}/image?${query}`, { apiKey: owner.apiKey });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
    },
  );

  it('answers 404 not_found for another account’s code and 401 without a key', async () => {
    const other = await createTestAccount(database.db, app);
    expect((await rawRequest(app, `/qrcodes/${code.id}/image`, { apiKey: other.apiKey })).body.error.code).toBe('not_found');
    expect((await rawRequest(app, `/qrcodes/${code.id}/image`)).status).toBe(401);
  });
});

describe('a Wi-Fi code set to join directly', () => {
  it('is drawn from the network itself (the WIFI: string), in every format, and a dynamic one from its short URL', async () => {
    const wifi = { ssid: 'Harbour; Guest', security: 'WPA', password: 'sea:breeze,42' };
    const direct = await createTestTypedCode(database.db, owner, { type: 'WIFI', content: { ...wifi, direct: true }, siteUrl: app.config.siteUrl });
    const dynamic = await createTestTypedCode(database.db, owner, { type: 'WIFI', content: wifi, siteUrl: app.config.siteUrl });
    const png = async (id: string) => {
      const res = await fetch(`${app.apiUrl}/qrcodes/${id}/image?format=png&size=512`, { headers: { Authorization: `Bearer ${owner.apiKey}` } });
      expect(res.status).toBe(200);
      return readQrPng(Buffer.from(await res.arrayBuffer()));
    };
    expect(await png(direct.id)).toBe('WIFI:T:WPA;S:Harbour\\; Guest;P:sea\\:breeze\\,42;;');
    expect(await png(dynamic.id)).toBe(`HTTPS://QR.EXAMPLE.COM/R/${dynamic.slug}`);
  });
});
