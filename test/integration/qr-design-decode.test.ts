import { createRequire } from 'node:module';
import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  CORNER_DOT_SHAPES,
  CORNER_FRAME_SHAPES,
  type Design,
  MODULE_SHAPES,
  parseDesign,
} from '../../src/qr/design/design.js';
import { renderDesignPng } from '../../src/qr/design/render-png.js';
import { DesignRefusedError, renderDesignSvg } from '../../src/qr/design/render-svg.js';

// jsqr is CommonJS with an ESM-style default in its typings; require gives the function under either view.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/** A short URL as qrContentFor makes it (alphanumeric mode), and a case-sensitive one that needs a larger version. */
const TEXTS = ['HTTPS://QR.EXAMPLE.COM/R/AB12CD34', 'https://qr.example.com/campaigns/r/Xy7_kP2q?utm=spring'];
const SIZES = [256, 1024];

/** An opaque 64×64 logo: an orange disc on white, the kind of mark a brand puts in the middle. */
function generatedLogo(): string {
  const png = new PNG({ width: 64, height: 64 });
  for (let y = 0; y < 64; y++) {
    for (let x = 0; x < 64; x++) {
      const i = (y * 64 + x) * 4;
      const inDisc = (x - 32) ** 2 + (y - 32) ** 2 < 30 ** 2;
      png.data.set(inDisc ? [230, 90, 20, 255] : [255, 255, 255, 255], i);
    }
  }
  return PNG.sync.write(png).toString('base64');
}

function design(input: unknown): Design {
  const parsed = parseDesign(input);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.design;
}

/** RGBA composited over white (a transparent code is printed on paper), as both decoders want opaque pixels. */
function opaquePixels(png: Buffer): { pixels: Uint8ClampedArray; width: number; height: number } {
  const image = PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data);
  for (let i = 0; i < pixels.length; i += 4) {
    const alpha = pixels[i + 3]! / 255;
    for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(pixels[i + c]! * alpha + 255 * (1 - alpha));
    pixels[i + 3] = 255;
  }
  return { pixels, width: image.width, height: image.height };
}

function decodeWithJsQr(png: Buffer): string | undefined {
  const { pixels, width, height } = opaquePixels(png);
  return jsQR(pixels, width, height, { inversionAttempts: 'attemptBoth' })?.data;
}

/** ZXing reads dark-on-light only; an inverted code is given to it inverted, as a scanner app's "invert" mode does. */
function decodeWithZxing(png: Buffer, inverted = false): string | undefined {
  const { pixels, width, height } = opaquePixels(png);
  const luminance = new Uint8ClampedArray(width * height);
  for (let i = 0; i < luminance.length; i++) {
    const y = (pixels[i * 4]! * 299 + pixels[i * 4 + 1]! * 587 + pixels[i * 4 + 2]! * 114) / 1000;
    luminance[i] = inverted ? 255 - y : y;
  }
  const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(luminance, width, height)));
  try {
    return new QRCodeReader().decode(bitmap, new Map([[DecodeHintType.TRY_HARDER, true]])).getText();
  } catch {
    return undefined;
  }
}

const LOGO = generatedLogo();
const GRADIENTS = [
  { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#1d4ed8' }, { offset: 1, color: '#7e22ce' }] },
  { type: 'radial', stops: [{ offset: 0, color: '#000000' }, { offset: 0.6, color: '#14532d' }, { offset: 1, color: '#065f46' }] },
  { type: 'solid', color: '#111827' },
];

/**
 * Every module shape × corner frame shape (each with a corner dot shape), plain and with both logo and frame, plus
 * logo alone and frame alone for a few; gradients, logo sizes and clearing alternate. Kept to ~36 designs (about
 * 20 s on 2 cores: ZXing with TRY_HARDER on a 1024 px image is most of it).
 */
function matrix(): { label: string; input: unknown; text: string }[] {
  const cases: { label: string; input: unknown; text: string }[] = [];
  const variants = [
    { logo: false, frame: false },
    { logo: true, frame: true },
  ];
  let index = 0;
  const add = (moduleShape: string, c: number, logo: boolean, frame: boolean) => {
    const cornerShape = CORNER_FRAME_SHAPES[c]!;
    const input = {
      moduleShape,
      foreground: GRADIENTS[index % GRADIENTS.length],
      cornerFrame: { shape: cornerShape, color: index % 2 ? '#991b1b' : null },
      cornerDot: { shape: CORNER_DOT_SHAPES[(c + index) % CORNER_DOT_SHAPES.length] },
      // The largest logo and Q's largest, with the default margin, alternately cleared and drawn over the modules.
      ...(logo && { logo: { png: LOGO, size: index % 4 < 2 ? 0.3 : 0.2, margin: 1, clearBehind: index % 3 !== 0 } }),
      ...(frame && { frame: { style: index % 2 ? 'box' : 'banner', text: 'Scan me & win <today>!', color: '#111827', textColor: '#fde68a' } }),
    };
    cases.push({ label: `${moduleShape}/${cornerShape}${logo ? '/logo' : ''}${frame ? '/frame' : ''}`, input, text: TEXTS[index % TEXTS.length]! });
    index++;
  };
  for (const moduleShape of MODULE_SHAPES) {
    for (const c of CORNER_FRAME_SHAPES.keys()) for (const v of variants) add(moduleShape, c, v.logo, v.frame);
  }
  for (const moduleShape of ['dots', 'classy', 'rounded']) {
    add(moduleShape, 1, true, false);
    add(moduleShape, 2, false, true);
  }
  return cases;
}

describe('designed QR codes decode with jsQR and ZXing', () => {
  const cases = matrix();

  it(`decodes ${cases.length} designs at ${SIZES.join(' and ')} px to the exact text with ZXing, and with jsQR but for its listed gaps`, () => {
    const failures: string[] = [];
    for (const { label, input, text } of cases) {
      const svg = renderDesignSvg(design(input), text);
      for (const size of SIZES) {
        const png = renderDesignPng(svg, size);
        const byJsQr = decodeWithJsQr(png);
        const byZxing = decodeWithZxing(png);
        if (byJsQr !== text) failures.push(`${label} @${size}: jsQR read ${JSON.stringify(byJsQr)}`);
        if (byZxing !== text) failures.push(`${label} @${size}: ZXing read ${JSON.stringify(byZxing)}`);
      }
    }
    // KNOWN GAP (open): jsQR misses these `dots` designs (ZXing reads them all); full-width dots and square
    // function patterns fixed most, not these. Listed exactly, so a new failure or a fix both show here.
    expect(failures).toEqual([
      'dots/square/logo/frame @1024: jsQR read undefined',
      'dots/rounded @1024: jsQR read undefined',
      'dots/dot @1024: jsQR read undefined',
      'dots/dot/frame @256: jsQR read undefined',
      'dots/dot/frame @1024: jsQR read undefined',
    ]);
  });

  it('decodes the edge cases the checks allow: contrast just above 3:1, transparent, the least quiet zone a frame allows, confirmed inverted', () => {
    const text = TEXTS[0]!;
    const edges = [
      { input: { foreground: { type: 'solid', color: '#949494' } } },
      { input: { background: null, moduleShape: 'rounded' } },
      { input: { quietZone: 2, frame: { style: 'box', text: 'Scan me' } } },
      { input: { foreground: { type: 'solid', color: '#ffffff' }, background: '#1e3a8a', confirmInverted: true }, inverted: true },
    ];
    for (const { input, inverted } of edges) {
      const svg = renderDesignSvg(design(input), text);
      for (const size of SIZES) {
        const png = renderDesignPng(svg, size);
        expect({ input, size, jsQR: decodeWithJsQr(png), zxing: decodeWithZxing(png, inverted) }).toEqual({ input, size, jsQR: text, zxing: text });
      }
    }
  });

  it('refuses to render designs that would not scan', () => {
    const refused = [
      { foreground: { type: 'solid', color: '#a0a0a0' } },
      { foreground: { type: 'linear', angle: 0, stops: [{ offset: 0, color: '#000000' }, { offset: 1, color: '#dddddd' }] } },
      { foreground: { type: 'solid', color: '#ffffff' }, background: '#000000' },
      { logo: { png: LOGO, size: 0.3, margin: 4 } },
      { quietZone: 0, frame: { text: 'Scan me' } },
    ];
    for (const input of refused) expect(() => renderDesignSvg(design(input), TEXTS[0]!), JSON.stringify(input).slice(0, 80)).toThrow(DesignRefusedError);
  });

  it('draws the frame text with the shipped font, the same on every machine', () => {
    const svg = renderDesignSvg(design({ frame: { text: 'Scan me' } }), TEXTS[0]!);
    const withText = PNG.sync.read(renderDesignPng(svg, 256));
    const without = PNG.sync.read(renderDesignPng(svg.replace(/<text[^>]*>[^<]*<\/text>/, ''), 256));
    // Light text pixels in the dark band: present with the text, absent without it.
    const lightInBand = (image: PNG) => {
      let count = 0;
      for (let y = Math.floor(image.height * 0.88); y < image.height; y++) {
        for (let x = Math.floor(image.width * 0.1); x < image.width * 0.9; x++) if (image.data[(y * image.width + x) * 4]! > 128) count++;
      }
      return count;
    };
    expect(lightInBand(without)).toBe(0);
    expect(lightInBand(withText)).toBeGreaterThan(300);
  });
});
