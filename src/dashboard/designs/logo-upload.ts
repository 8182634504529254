import type { Request } from 'express';
import { Resvg } from '@resvg/resvg-js';
import { looksLikeSvg, MAX_SVG_BYTES, rasteriseSvg } from '../../files/svg-logo.js';
import { FileRejectedError } from '../../files/file-errors.js';
import { imagePixels, MAX_DECODED_IMAGE_PIXELS } from '../../files/image-pixels.js';
import { LIMITS } from '../../qr/design/design.js';
import { DashboardError } from '../shared/errors.js';
import { readMultipart } from '../shared/multipart.js';

/** An upload larger than this is refused before it is decoded; a logo that large is a photo, not a logo. */
export const MAX_LOGO_UPLOAD_BYTES = MAX_SVG_BYTES;

/** Raster logos re-encoded to fit the design's limit are this wide: a logo is at most 30% of a 1024-px code. */
const REENCODED_SIDE = 512;

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/**
 * The logo of an upload form (field `logo`) as the base64 PNG a design holds. Checked by content, not by name:
 * a PNG is kept as it is when it fits the design's limits; a JPEG, or a PNG too large, is drawn into a square PNG
 * by resvg (a raster image inside an SVG, which it decodes itself); an SVG is rasterised without anything it
 * could reference (src/files/svg-logo.ts). The design's own parser checks the result again.
 */
export async function readLogoUpload(req: Request): Promise<string> {
  let logo: Buffer | undefined;
  let tooLarge = false;
  await readMultipart(req, { maxFiles: 1, maxFileBytes: MAX_LOGO_UPLOAD_BYTES, maxFields: 5 }, async (part) => {
    if (part.field !== 'logo') {
      part.stream.resume();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.stream) chunks.push(chunk as Buffer);
    tooLarge = part.truncated();
    logo = Buffer.concat(chunks);
  });
  if (tooLarge) throw refused(`The logo is larger than ${MAX_LOGO_UPLOAD_BYTES / 1024 / 1024} MB.`);
  if (!logo || logo.length === 0) throw refused('Choose a logo file to upload.');
  try {
    return (await toPng(logo)).toString('base64');
  } catch (error) {
    if (error instanceof FileRejectedError) throw refused(error.message);
    throw error;
  }
}

async function toPng(bytes: Buffer): Promise<Buffer> {
  if (looksLikeSvg(bytes)) {
    const png = await rasteriseSvg(bytes);
    return png.length <= LIMITS.maxLogoBytes ? png : redraw(png, 'image/png');
  }
  const png = bytes.subarray(0, 8).equals(PNG);
  if (!png && !bytes.subarray(0, 3).equals(JPEG)) throw refused('The logo must be a PNG, JPEG or SVG image.');
  // Measured before anything decodes it: a small file can declare a bitmap of gigabytes.
  const pixels = imagePixels(bytes);
  if (pixels === undefined) throw refused('The logo image could not be read; export it again from your design tool.');
  if (pixels > MAX_DECODED_IMAGE_PIXELS) throw refused('The logo image has more than 4096 × 4096 pixels; export it smaller.');
  if (png) {
    const width = bytes.length >= 24 ? bytes.readUInt32BE(16) : 0;
    const height = bytes.length >= 24 ? bytes.readUInt32BE(20) : 0;
    const fits = bytes.length <= LIMITS.maxLogoBytes && width >= 1 && height >= 1 && width <= LIMITS.maxLogoPixels && height <= LIMITS.maxLogoPixels;
    return fits ? bytes : redraw(bytes, 'image/png');
  }
  return redraw(bytes, 'image/jpeg');
}

/** The image centred in a square (the renderer draws logos square, keeping their aspect ratio), as PNG. */
function redraw(bytes: Buffer, mediaType: 'image/png' | 'image/jpeg'): Buffer {
  const side = REENCODED_SIDE;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}">` +
    `<image width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet" href="data:${mediaType};base64,${bytes.toString('base64')}"/></svg>`;
  let rendered;
  try {
    rendered = new Resvg(svg, { font: { loadSystemFonts: false }, logLevel: 'off' }).render();
  } catch {
    throw refused('The logo image could not be read; export it again from your design tool.');
  }
  // resvg draws nothing (and says nothing) for an image it cannot decode: an all-transparent square is that.
  if (!hasVisiblePixel(rendered.pixels)) throw refused('The logo image could not be read; export it again from your design tool.');
  const png = rendered.asPng();
  if (png.length > LIMITS.maxLogoBytes) throw refused(`The logo is too detailed to keep; use a simpler image under ${LIMITS.maxLogoBytes / 1024} KB as PNG.`);
  return png;
}

function hasVisiblePixel(rgba: Buffer): boolean {
  for (let alpha = 3; alpha < rgba.length; alpha += 4) if (rgba[alpha] !== 0) return true;
  return false;
}

function refused(sentence: string): DashboardError {
  return new DashboardError(400, 'The logo could not be used', sentence);
}
