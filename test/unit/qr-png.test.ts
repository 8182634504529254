import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { encodeQrPng } from '../../src/qr/png.js';

// jsqr is CommonJS with an ESM-style default in its typings; require gives the function under either view.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

const TEXT = 'HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD';

function chunks(png: Buffer): { type: string; data: Buffer; crc: number }[] {
  const out = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    out.push({ type: png.toString('ascii', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length), crc: png.readUInt32BE(at + 8 + length) });
    at += 12 + length;
  }
  return out;
}

describe('encodeQrPng', () => {
  it('writes a 1-bit grayscale PNG whose chunks carry valid CRCs', () => {
    const { modules } = QRCode.create(TEXT, { errorCorrectionLevel: 'M' });
    const png = encodeQrPng(modules, 3, 4);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const found = chunks(png);
    expect(found.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    for (const chunk of found) expect(chunk.crc).toBe(crc32(Buffer.concat([Buffer.from(chunk.type, 'ascii'), chunk.data])));
    const ihdr = found[0]!.data;
    expect(ihdr.readUInt32BE(0)).toBe((modules.size + 8) * 3);
    expect([ihdr[8], ihdr[9]]).toEqual([1, 0]); // bit depth 1, grayscale
  });

  // Widths that are and are not multiples of 8 pixels: the padding bits at the end of a row must stay light.
  it.each([
    [1, 0],
    [2, 4],
    [3, 1],
    [7, 4],
    [100, 4],
  ])('draws every module as whole %i-pixel squares with a %i-module quiet zone, and decodes', (scale, margin) => {
    const { modules } = QRCode.create(TEXT, { errorCorrectionLevel: 'Q' });
    const png = PNG.sync.read(encodeQrPng(modules, scale, margin));
    const side = (modules.size + 2 * margin) * scale;
    expect([png.width, png.height]).toEqual([side, side]);
    for (let y = 0; y < side; y++) {
      for (let x = 0; x < side; x++) {
        const row = Math.floor(y / scale) - margin;
        const col = Math.floor(x / scale) - margin;
        const inside = row >= 0 && col >= 0 && row < modules.size && col < modules.size;
        const dark = inside && Boolean(modules.get(row, col));
        if (png.data[(y * side + x) * 4] !== (dark ? 0 : 255)) throw new Error(`pixel ${x},${y} should be ${dark ? 'dark' : 'light'}`);
      }
    }
    if (scale >= 2 && margin > 0) expect(jsQR(new Uint8ClampedArray(png.data), side, side)?.data).toBe(TEXT);
  });

  it('keeps a 4096-pixel image small (1 bit a pixel, deflated)', () => {
    const { modules } = QRCode.create(TEXT, { errorCorrectionLevel: 'M' });
    const png = encodeQrPng(modules, Math.floor(4096 / (modules.size + 8)), 4);
    expect(png.length).toBeLessThan(64 * 1024);
  });
});
