import { createHash } from 'node:crypto';
import QRCode from 'qrcode';

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

export interface QrImage {
  body: Buffer;
  contentType: string;
  etag: string;
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

/** Renders deterministically: the same request gives byte-identical output (and so the same ETag). */
export async function renderQrImage(request: QrImageRequest): Promise<QrImage> {
  let body: Buffer;
  if (request.format === 'svg') {
    const svg = await QRCode.toString(request.text, {
      type: 'svg',
      errorCorrectionLevel: request.ecc,
      margin: request.margin,
      width: request.size,
    });
    body = Buffer.from(svg);
  } else {
    // Whole pixels per module keep every module the same size, which scanners need at small sizes: the image
    // is the largest multiple of the module count that fits `size`, with at least 2 pixels per module.
    const modules = QRCode.create(request.text, { errorCorrectionLevel: request.ecc }).modules.size + 2 * request.margin;
    body = await QRCode.toBuffer(request.text, {
      type: 'png',
      errorCorrectionLevel: request.ecc,
      margin: request.margin,
      scale: Math.max(MIN_PNG_PIXELS_PER_MODULE, Math.floor(request.size / modules)),
    });
  }
  return {
    body,
    contentType: request.format === 'svg' ? 'image/svg+xml' : 'image/png',
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
  };
}
