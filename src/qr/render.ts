import { createHash } from 'node:crypto';
import QRCode from 'qrcode';
import { DEFAULT_DESIGN, type Design } from './design/design.js';
import { renderDesignEps } from './design/render-eps.js';
import { renderDesignPdf } from './design/render-pdf.js';
import { renderDesignPng } from './design/render-png.js';
import { DesignRefusedError, renderDesignSvg } from './design/render-svg.js';
import type { PrintPage } from './design/print-page.js';
import { encodeQrPng } from './png.js';

export type QrFormat = 'svg' | 'png' | 'pdf' | 'eps';
export type ErrorCorrection = 'L' | 'M' | 'Q' | 'H';

export interface QrImageRequest {
  text: string;
  format: QrFormat;
  /**
   * Pixels wide, including the quiet zone: a PNG is exactly this wide (and as high, unless a frame makes it taller),
   * every module a whole number of pixels with what is left over added to the quiet zone.
   */
  size: number;
  /** Quiet zone, in modules. */
  margin: number;
  ecc: ErrorCorrection;
  /**
   * The code's saved design (src/designs/), which decides the quiet zone and error correction itself (`margin`
   * and `ecc` are then unused). Absent or null: the plain renderer below, byte for byte what it always drew.
   */
  design?: Design | null;
  /** PDF and EPS only: the print page (size in millimetres, bleed, crop marks, CMYK). Absent or null: DEFAULT_PDF's. */
  print?: PrintPage | null;
}

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
export const RENDERER_VERSION = 3;

/**
 * The image's validator, from what it is made of rather than its bytes: a request whose `If-None-Match` matches
 * is answered 304 without rendering anything. Rendering is deterministic, so equal inputs mean equal bytes.
 */
export function qrImageEtag(request: QrImageRequest): string {
  const inputs = [RENDERER_VERSION, request.text, request.format, request.size, request.margin, request.ecc];
  // Undesigned images keep the inputs (so the ETags) they always had; a design adds its own version and itself.
  if (request.design) inputs.push(DESIGN_RENDERER_VERSION, JSON.stringify(request.design));
  if (request.print) inputs.push('print', JSON.stringify(request.print));
  return `"${createHash('sha256').update(inputs.join('\u0000')).digest('base64url').slice(0, 32)}"`;
}

/**
 * Bumped whenever renderDesignSvg, renderDesignPng or renderDesignPdf draw the same design differently (or the
 * checks start refusing designs they drew), like RENDERER_VERSION for the plain renderer.
 */
export const DESIGN_RENDERER_VERSION = 3;

export function qrImageContentType(format: QrFormat): string {
  return { svg: 'image/svg+xml', png: 'image/png', pdf: 'application/pdf', eps: 'application/postscript' }[format];
}

/** Renders deterministically: the same request gives byte-identical output. CPU-bound; see image-renderer.ts. */
export async function renderQrImageBody(request: QrImageRequest): Promise<Buffer> {
  if (request.design || request.format === 'pdf' || request.format === 'eps') return renderDesigned(request);
  if (request.format === 'svg') {
    const svg = await QRCode.toString(request.text, {
      type: 'svg',
      errorCorrectionLevel: request.ecc,
      margin: request.margin,
      width: request.size,
    });
    return Buffer.from(svg);
  }
  // Whole pixels per module keep every module the same size and its edges sharp, which scanners need at small
  // sizes: as many as fit, and the pixels left over widen the quiet zone, so the image is exactly `size` wide.
  const { modules } = QRCode.create(request.text, { errorCorrectionLevel: request.ecc });
  const scale = Math.floor(request.size / (modules.size + 2 * request.margin));
  // Below a pixel a module (a long text at 64 px) nothing can be crisp: the default design, scaled to fit.
  if (scale < 1) return renderDesigned(request);
  return encodeQrPng(modules, scale, request.margin, request.size);
}

/**
 * A designed image: `size` is its width (a frame makes it taller), in whole pixels per module for a PNG; a PDF or
 * an EPS is the design at print size, on `print`'s page if given. An
 * undesigned PDF is the default design with the request's quiet zone and error correction. A saved design that
 * today's checks refuse (stored before a rule was added) is drawn in the default look instead, so a printed code
 * always scans.
 */
async function renderDesigned(request: QrImageRequest): Promise<Buffer> {
  const fallback: Design = { ...DEFAULT_DESIGN, quietZone: request.margin, errorCorrection: request.ecc };
  const print = request.format === 'pdf' || request.format === 'eps' ? request.print ?? undefined : undefined;
  const options = { width: request.size, wholePixels: request.format === 'png', bleed: print ? print.bleedMm / print.sizeMm : 0 };
  let svg: string;
  try {
    svg = renderDesignSvg(request.design ?? fallback, request.text, options);
  } catch (error) {
    if (!(error instanceof DesignRefusedError) || !request.design) throw error;
    svg = renderDesignSvg(DEFAULT_DESIGN, request.text, options);
  }
  if (request.format === 'svg') return Buffer.from(svg);
  if (request.format === 'png') return renderDesignPng(svg, request.size);
  if (request.format === 'eps') return Buffer.from(renderDesignEps(svg, print));
  return renderDesignPdf(svg, print);
}
