import { createRequire } from 'node:module';
import { BinaryBitmap, DecodeHintType, HybridBinarizer, QRCodeReader, RGBLuminanceSource } from '@zxing/library';
import { PNG } from 'pngjs';
import {
  CORNER_DOT_SHAPES,
  CORNER_FRAME_SHAPES,
  type Design,
  MODULE_SHAPES,
  type ModuleShape,
  parseDesign,
} from '../../src/qr/design/design.js';
import { renderDesignPng } from '../../src/qr/design/render-png.js';
import { renderDesignSvg } from '../../src/qr/design/render-svg.js';

// What test/integration/qr-design-decode.test.ts decodes, and scripts/bench/design-decode.ts in full.

// jsqr is CommonJS with an ESM-style default in its typings; require gives the function under either view.
const jsQR = createRequire(import.meta.url)('jsqr') as typeof import('jsqr').default;

/**
 * What a code carries. Every type is served through its short URL, so that is what codes encode: upper-cased to
 * alphanumeric by qrContentFor (the smallest version), or case-sensitive under a site URL with a path (byte mode);
 * and a Wi-Fi network as a static code would carry it, a larger version with more error-correction blocks, so a
 * logo falls on them differently. (A whole vCard, version 9–13, is left out of the matrix: ZXing misses even a
 * plain black code of that size at some widths whatever the design, and at many with Q or H; see the test.)
 */
export const TEXTS = [
  'HTTPS://QR.EXAMPLE.COM/R/AB12CD34',
  'https://qr.example.com/campaigns/r/Xy7_kP2q',
  'WIFI:T:WPA;S:Café Guest 5G;P:correct-horse-battery-staple;;',
];
/**
 * Widths a decoder sees the code at: the dashboard's preview (512) and a camera's view of a print, from a small
 * code across a room (256) to one filling a 1080p frame (1024). Larger PNGs (2048, 4096) are print masters that
 * a phone only ever sees through its camera at these widths; decoded as stills at 2048, jsQR (whose finder score
 * is in pixels squared) took sub-module look-alikes for corners in codes that read at every width here.
 */
export const SIZES = [1024, 512, 256, 384];

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

export function design(input: unknown): Design {
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

export function decodeWithJsQr(png: Buffer): string | undefined {
  const { pixels, width, height } = opaquePixels(png);
  return jsQR(pixels, width, height, { inversionAttempts: 'attemptBoth' })?.data;
}

/** ZXing reads dark-on-light only; an inverted code is given to it inverted, as a scanner app's "invert" mode does. */
export function decodeWithZxing(png: Buffer, inverted = false): string | undefined {
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

/**
 * The text a scanner app reads from a PNG: jsQR's reading, or ZXing's when jsQR reads nothing (apps try more than one
 * reading too). For tests whose code holds a random slug and port: each decoder alone misses some such codes, about
 * 1 in 100 for jsQR at 1024 px with rounded modules, and ZXing a few in 400 elsewhere, but never both the same one in
 * 1,600 random short URLs tried (2026-11-27); one decoder alone failed CI at random.
 */
export function readQrPng(png: Buffer): string | undefined {
  return decodeWithJsQr(png) ?? decodeWithZxing(png);
}

export const LOGO = generatedLogo();
const GRADIENTS = [
  { type: 'solid', color: '#111827' },
  { type: 'linear', angle: 45, stops: [{ offset: 0, color: '#1d4ed8' }, { offset: 1, color: '#7e22ce' }] },
  { type: 'radial', stops: [{ offset: 0, color: '#000000' }, { offset: 0.6, color: '#14532d' }, { offset: 1, color: '#065f46' }] },
];
/** The largest logo, over the modules or with them cleared and the default 1-module margin around it. */
const LOGOS = [
  { label: 'no logo', logo: undefined },
  { label: 'cleared logo', logo: { png: LOGO, size: 0.3, margin: 1, clearBehind: true } },
  { label: 'drawn-over logo', logo: { png: LOGO, size: 0.3, margin: 1, clearBehind: false } },
];

export interface DecodeCase {
  label: string;
  input: Record<string, unknown>;
  text: string;
  size: number;
}

function decodeCase(moduleShape: ModuleShape, f: number, d: number, l: number, text: string, size: number): DecodeCase {
  const cornerFrame = CORNER_FRAME_SHAPES[f]!;
  const cornerDot = CORNER_DOT_SHAPES[d]!;
  const { label, logo } = LOGOS[l]!;
  const input = {
    moduleShape,
    foreground: GRADIENTS[(f + d) % GRADIENTS.length],
    cornerFrame: { shape: cornerFrame, color: (d + l) % 3 === 1 ? '#991b1b' : null },
    cornerDot: { shape: cornerDot },
    ...(logo && { logo }),
    ...((f + l) % 3 === 2 && { frame: { style: d % 2 ? 'box' : 'banner', text: 'Scan me & win <today>!', color: '#111827', textColor: '#fde68a' } }),
  };
  return { label: `${moduleShape} modules, ${cornerFrame} frame, ${cornerDot} dot, ${label}, ${text.length} chars @${size}px`, input, text, size };
}

/**
 * The test's sample for one module shape: every corner frame × corner dot (9 designs), each drawn once or refused.
 * Logos, texts and widths turn over with the indices so that, across the five module shapes, every allowed corner
 * frame × corner dot × logo design is drawn, every allowed corner pair meets every text, every module shape every
 * logo and text, and every logo and text every width; fills, corner colours and frames vary too. No randomness, so
 * a failure names a design that fails again. 31 decodes; the whole product, 1,116 decodes of every allowed design
 * with every text at every width, takes minutes on 2 cores: `BENCH_PARTS=design-decode npm run bench`.
 */
export function sampleCasesFor(moduleShape: ModuleShape): DecodeCase[] {
  const m = MODULE_SHAPES.indexOf(moduleShape);
  const cases: DecodeCase[] = [];
  for (const f of CORNER_FRAME_SHAPES.keys()) {
    for (const d of CORNER_DOT_SHAPES.keys()) {
      // Found by searching small linear formulas for the most pairs covered among the designs not refused.
      const l = (m + 2 * f) % LOGOS.length;
      cases.push(decodeCase(moduleShape, f, d, l, TEXTS[(m + d) % TEXTS.length]!, SIZES[(m + 3 * d + l + 2) % SIZES.length]!));
    }
  }
  return cases;
}

/** Every module shape × corner frame × corner dot × logo × text × width: what the bench decodes. */
export function allCases(): DecodeCase[] {
  const cases: DecodeCase[] = [];
  for (const moduleShape of MODULE_SHAPES) {
    for (const f of CORNER_FRAME_SHAPES.keys()) {
      for (const d of CORNER_DOT_SHAPES.keys()) {
        for (const l of LOGOS.keys()) {
          for (const text of TEXTS) for (const size of SIZES) cases.push(decodeCase(moduleShape, f, d, l, text, size));
        }
      }
    }
  }
  return cases;
}

/**
 * A scanner reads a burst of frames, never one still at one exact scale. jsQR must read the image as rendered;
 * ZXing gets the image and, if it misses, the same image 10% smaller (a hand moving away), and must read one of
 * them. ZXing's finder search ranks candidates by how many rows confirmed them and skips rows once it has two, so
 * at some exact widths a finder look-alike in the data (or at a logo's edge: the test's logo, a disc on white, is
 * a bull's-eye) outranks a real corner: a classy-rounded code with a logo read at 480, 500 and 530 px but not 512,
 * and a plain black vCard code at Q missed 15 of 33 widths from 300 to 1100 px. Here ZXing needs the second frame
 * for about 1 case in 20 (the test prints them); a design it misses in both fails.
 */
const ZXING_FRAMES = [1, 0.9];

/** The corner shapes checkDesign refuses (see design-checks.ts); every other design must decode. */
export function isRefusedPair(input: Record<string, unknown>): boolean {
  const ring = (input.cornerFrame as { shape: string }).shape;
  const centre = (input.cornerDot as { shape: string }).shape;
  return (
    (ring === 'square' && centre === 'dot') ||
    (ring === 'dot' && centre === 'square') ||
    (input.moduleShape === 'dots' && ring !== centre && (ring === 'square' || centre === 'square'))
  );
}

/** Renders an allowed design and decodes it with both: why it failed, or whether ZXing needed its second frame. */
export function decodeDesign({ label, input, text, size }: DecodeCase): { failures: string[]; retried: boolean } {
  const failures: string[] = [];
  const svg = renderDesignSvg(design(input), text);
  const png = renderDesignPng(svg, size);
  const byJsQr = decodeWithJsQr(png);
  if (byJsQr !== text) failures.push(`${label}: jsQR read ${JSON.stringify(byJsQr)}`);
  const byZxing: (string | undefined)[] = [];
  for (const scale of ZXING_FRAMES) {
    byZxing.push(decodeWithZxing(scale === 1 ? png : renderDesignPng(svg, Math.round(size * scale))));
    if (byZxing.at(-1) === text) break;
  }
  if (byZxing.at(-1) !== text) failures.push(`${label}: ZXing read ${JSON.stringify(byZxing)}`);
  return { failures, retried: byZxing.at(-1) === text && byZxing.length > 1 };
}
