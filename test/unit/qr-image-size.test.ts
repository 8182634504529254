import { createRequire } from 'node:module';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { type Design, parseDesign } from '../../src/qr/design/design.js';
import { renderQrImageBody, type QrImageRequest } from '../../src/qr/render.js';

// jsqr is CommonJS with an ESM-style default in its typings; require gives the function under either view.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/** A short URL (version 2 at M) and a text long enough for version 10, where few sizes divide evenly. */
const SHORT = 'HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD';
const LONG = 'https://qr.example.com/campaigns/spring/r/' + 'Xy7_kP2q'.repeat(20);

function design(input: unknown): Design {
  const parsed = parseDesign(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.design;
}

function request(overrides: Partial<QrImageRequest>): QrImageRequest {
  return { text: SHORT, format: 'png', size: 512, margin: 4, ecc: 'M', ...overrides };
}

async function png(overrides: Partial<QrImageRequest>): Promise<PNG> {
  return PNG.sync.read(await renderQrImageBody(request(overrides)));
}

/** Width and height from the PNG's IHDR, without decoding a 4096-pixel image. */
async function dimensions(overrides: Partial<QrImageRequest>): Promise<{ width: number; height: number }> {
  const body = await renderQrImageBody(request(overrides));
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) };
}

/** Grey levels other than pure black and white: anti-aliased (blurred) module edges. */
function greyPixels(image: PNG): number {
  let grey = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i] !== 0 && image.data[i] !== 255) grey++;
  return grey;
}

describe('PNG images are exactly the size asked for', () => {
  it('gives a plain code exactly `size` pixels square at sizes no module count divides, for short and long texts', async () => {
    expect(QRCode.create(LONG, { errorCorrectionLevel: 'M' }).version).toBeGreaterThanOrEqual(8);
    for (const text of [SHORT, LONG]) {
      for (const size of [64, 100, 511, 512, 1000, 1024, 2048, 4096]) {
        expect({ text: text.length, size, ...(await dimensions({ text, size })) }).toEqual({ text: text.length, size, width: size, height: size });
      }
    }
  });

  it('keeps whole pixels per module and centres the spare pixels in the quiet zone, so a plain code stays crisp and decodes', async () => {
    // Version 2 with 4 modules of quiet zone is 33 modules: 1024 px is 31 px a module and 1 spare pixel, 1000 is 30
    // and 10 spare (5 each side).
    for (const size of [1000, 1024]) {
      const image = await png({ size });
      expect(greyPixels(image)).toBe(0);
      expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(SHORT);
    }
    const image = await png({ size: 1000 });
    // The top-left finder starts after 4 modules of 30 px and 5 spare pixels.
    const dark = (x: number, y: number) => image.data[(y * image.width + x) * 4] === 0;
    expect([dark(124, 124), dark(125, 125), dark(125 + 7 * 30 - 1, 125)]).toEqual([false, true, true]);
  });

  it('gives a designed code exactly `size` pixels wide and, without a frame, as high, with crisp square modules', async () => {
    for (const text of [SHORT, LONG]) {
      for (const size of [64, 333, 1000, 2048]) {
        expect({ text: text.length, size, ...(await dimensions({ text, size, design: design({}) })) }).toEqual({ text: text.length, size, width: size, height: size });
      }
      expect(greyPixels(await png({ text, size: 333, design: design({}) }))).toBe(0);
    }
    const image = await png({ size: 1000, design: design({ moduleShape: 'rounded', foreground: { type: 'solid', color: '#1d4ed8' } }) });
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(SHORT);
  });

  it('makes a framed design exactly `size` wide and a whole number of pixels high', async () => {
    for (const style of ['banner', 'box']) {
      for (const size of [257, 1024]) {
        const { width, height } = await dimensions({ size, design: design({ frame: { style, text: 'Scan me' } }) });
        expect(width).toBe(size);
        expect(height).toBeGreaterThan(size * 1.1);
      }
    }
  });

  it('gives an SVG the asked width', async () => {
    const plain = (await renderQrImageBody(request({ format: 'svg', size: 1000 }))).toString();
    const designed = (await renderQrImageBody(request({ format: 'svg', size: 1000, design: design({}) }))).toString();
    expect(plain).toMatch(/<svg[^>]* width="1000" height="1000"/);
    expect(designed).toMatch(/<svg[^>]* width="1000" height="1000"/);
  });
});
