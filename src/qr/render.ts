import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { encodeQrPng } from './png.js';

export type QrFormat = 'svg' | 'png';
export type ErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrImageRequest {
  text: string;
  format: QrFormat;
  /** Pixels, including the quiet zone. */
  size: number;
  /** Quiet zone, in modules. */
  margin: number;
  ecc: ErrorCorrection;
}

const MIN_PNG_PIXELS_PER_MODULE = 2;

/** Characters of QR alphanumeric mode (5.5 bits a character instead of 8 in byte mode). */
const ALPHANUMERIC = /^[0-9A-Z $%*+\-./:]*$/;

/**
 * What the image encodes for a short URL. Upper-casing lets the whole URL use alphanumeric mode, which often
 * means a smaller QR version; it is only safe when nothing case-sensitive remains: scheme and host never are,
 * `/R/` and the slug are accepted in any case, but a path prefix in SITE_URL may be case-sensitive behind a proxy.
 */
export function qrContentFor(shortUrl: string, siteUrl: string): string {
  if (new URL(siteUrl).pathname !== '/') return shortUrl;
  const upper = shortUrl.toUpperCase();
  return ALPHANUMERIC.test(upper) ? upper : shortUrl;
}

/**
 * Bumped whenever the renderer's output for the same request changes, so ETags (and cached images) made by an
 * older version are not taken for the new bytes.
 */
export const RENDERER_VERSION = 2;

/**
 * The image's validator, from what it is made of rather than its bytes: a request whose `If-None-Match` matches
 * is answered 304 without rendering anything. Rendering is deterministic, so equal inputs mean equal bytes.
 */
export function qrImageEtag(request: QrImageRequest): string {
  const inputs = [RENDERER_VERSION, request.text, request.format, request.size, request.margin, request.ecc].join('\u0000');
  return `"${createHash('sha256').update(inputs).digest('base64url').slice(0, 32)}"`;
}

export function qrImageContentType(format: QrFormat): string {
  return format === 'svg' ? 'image/svg+xml' : 'image/png';
}

/** Renders deterministically: the same request gives byte-identical output. CPU-bound; see image-renderer.ts. */
export async function renderQrImageBody(request: QrImageRequest): Promise<Buffer> {
  if (request.format === 'svg') {
    const svg = await QRCode.toString(request.text, {
      type: 'svg',
      errorCorrectionLevel: request.ecc,
      margin: request.margin,
      width: request.size,
    });
    return Buffer.from(svg);
  }
  // Whole pixels per module keep every module the same size, which scanners need at small sizes: the image
  // is the largest multiple of the module count that fits `size`, with at least 2 pixels per module.
  const { modules } = QRCode.create(request.text, { errorCorrectionLevel: request.ecc });
  const scale = Math.max(MIN_PNG_PIXELS_PER_MODULE, Math.floor(request.size / (modules.size + 2 * request.margin)));
  return encodeQrPng(modules, scale, request.margin);
}
