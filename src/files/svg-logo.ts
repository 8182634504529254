import { Resvg, renderAsync } from '@resvg/resvg-js';
import { FileRejectedError } from './file-errors.js';
import { decodableImage } from './image-pixels.js';

/** An SVG logo is text held whole in memory and parsed: 1 MiB is far above any real logo. */
export const MAX_SVG_BYTES = 1024 * 1024;

/** The stored PNG's longer side: sharp at any size a logo is printed inside a QR code. */
const RASTER_SIDE = 1024;

/**
 * Whether the start of a file is an SVG document: optional BOM, XML declaration, comments, processing
 * instructions and a doctype, then an `<svg` root element.
 */
export function looksLikeSvg(head: Buffer): boolean {
  let text = head.subarray(0, 4096).toString('utf8').replace(/^\uFEFF/, '');
  const prolog = /^\s*(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i;
  for (let match = prolog.exec(text); match !== null; match = prolog.exec(text)) text = text.slice(match[0].length);
  return /^\s*<svg[\s>/]/.test(text);
}

/**
 * The logo as PNG. Only the PNG is stored: scripts, event handlers and links of the SVG cannot survive
 * rasterising, so nothing served back can run in a browser. resvg never uses the network, but it does read
 * local files an `href` names (absolute or relative paths), so every href that is not a fragment or an
 * inline raster image is removed first, and a document that declares entities (which could expand into
 * such markup) is refused. System fonts are not loaded: text renders the same on every machine, or not at all.
 */
export async function rasteriseSvg(svg: Buffer): Promise<Buffer> {
  const text = svg.toString('utf8');
  if (/<!ENTITY/i.test(text)) {
    throw new FileRejectedError('invalid_svg', 'This SVG declares XML entities, which logos cannot use.');
  }
  refuseLargeEmbeddedImages(text);
  const safe = withoutExternalReferences(text);
  const options = { font: { loadSystemFonts: false }, logLevel: 'off' as const };
  let size: { width: number; height: number };
  try {
    const parsed = new Resvg(safe, options);
    size = { width: parsed.width, height: parsed.height };
  } catch {
    throw new FileRejectedError('invalid_svg', 'This SVG could not be read; export it again from your design tool.');
  }
  if (!(size.width > 0 && size.height > 0)) {
    throw new FileRejectedError('invalid_svg', 'This SVG has no size; give it a width and height or a viewBox.');
  }
  // Fit the longer side, so a 1 x 100000 document cannot ask for a huge bitmap; a shorter side that would then be
  // under one pixel (1 x 100000000) draws nothing at all (resvg: "Target size is zero").
  if ((Math.min(size.width, size.height) / Math.max(size.width, size.height)) * RASTER_SIDE < 1) {
    throw new FileRejectedError('invalid_svg', `This SVG is too narrow to draw (${size.width} × ${size.height}); export it with a sensible width and height.`);
  }
  const fitTo = size.width >= size.height ? { mode: 'width' as const, value: RASTER_SIDE } : { mode: 'height' as const, value: RASTER_SIDE };
  try {
    return (await renderAsync(safe, { ...options, fitTo })).asPng();
  } catch {
    // resvg read the document above, so a failure to draw it is about the document too, never ours.
    throw new FileRejectedError('invalid_svg', 'This SVG could not be drawn; export it again from your design tool.');
  }
}

// Any namespace prefix: XML allows prefixes that start with non-ASCII letters (é:href), and resvg resolves the
// attribute by its namespace, not by the prefix's spelling.
const HREF = /(\s)((?:[^\s=<>"'/:]+:)?href)(\s*=\s*)("[^"]*"|'[^']*')/gi;
const SAFE_HREF = /^(#[\w.:-]*|data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*)$/;

const EMBEDDED_IMAGE = /data:image\/(?:png|jpeg|gif|webp);base64,([A-Za-z0-9+/=\s]*)/gi;

/** A raster image inside the SVG is decoded by resvg: it gets the same pixel budget as an uploaded one. */
function refuseLargeEmbeddedImages(text: string): void {
  for (const match of text.matchAll(EMBEDDED_IMAGE)) {
    if (!decodableImage(Buffer.from(match[1]!.replace(/\s+/g, ''), 'base64'))) {
      throw new FileRejectedError('invalid_svg', 'This SVG embeds an image that is too large (or unreadable) for a logo; export it again with a smaller image.');
    }
  }
}

/** Drops every href that could name something outside the document (an entity-encoded path included). */
function withoutExternalReferences(text: string): string {
  return text.replace(HREF, (whole, space: string, _name, _eq, quoted: string) =>
    SAFE_HREF.test(quoted.slice(1, -1).trim()) ? whole : space,
  );
}
