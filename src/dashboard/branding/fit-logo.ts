import { renderAsync } from '@resvg/resvg-js';
import { fileTypeFromBuffer } from 'file-type';
import { FileRejectedError } from '../../files/file-errors.js';
import { decodableImage } from '../../files/image-pixels.js';
import { MAX_SVG_BYTES, looksLikeSvg, rasteriseSvg } from '../../files/svg-logo.js';

/**
 * The logo box on landing pages is 160 × 48 CSS pixels; three times that is sharp on any phone screen. Every page
 * load fetches the logo, so a large upload is drawn into this box rather than sent whole.
 */
const BOX = { width: 480, height: 144 };

/** A logo this small goes in as uploaded: shrinking it would save a phone next to nothing. */
const KEEP_BELOW_BYTES = 48 * 1024;

const RASTER = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * The bytes to store for an uploaded logo: as uploaded when small; else drawn by resvg into the page's logo box
 * (aspect kept, left-aligned like the page shows it) as a PNG, when that is smaller. An SVG is rasterised first by
 * the file store's own sanitising rasteriser. Anything else is passed on unchanged for the file store to refuse
 * with its own message (type checked by content there).
 */
export async function fitLogo(bytes: Buffer, name: string): Promise<{ bytes: Buffer; name: string }> {
  const found = await fileTypeFromBuffer(bytes);
  let source = bytes;
  let mediaType = found?.mime;
  let fittedName = name;
  if ((found === undefined || found.mime === 'application/xml') && bytes.length <= MAX_SVG_BYTES && looksLikeSvg(bytes)) {
    source = await rasteriseSvg(bytes);
    mediaType = 'image/png';
    fittedName = asPng(name);
  } else if (mediaType === undefined || !RASTER.includes(mediaType)) {
    return { bytes, name };
  }
  // Measured before it is decoded here or shown on every landing page: a small file can declare gigabytes of bitmap.
  if (!decodableImage(source)) throw new FileRejectedError('image_too_large', 'This logo is larger than 4096 × 4096 pixels (or could not be read); export it smaller.');
  if (source.length <= KEEP_BELOW_BYTES) return { bytes: source, name: fittedName };
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${BOX.width}" height="${BOX.height}">` +
    `<image width="${BOX.width}" height="${BOX.height}" preserveAspectRatio="xMinYMid meet" href="data:${mediaType};base64,${source.toString('base64')}"/></svg>`;
  const png = (await renderAsync(svg, { font: { loadSystemFonts: false }, logLevel: 'off' })).asPng();
  return png.length < source.length ? { bytes: png, name: asPng(name) } : { bytes: source, name: fittedName };
}

function asPng(name: string): string {
  return `${name.replace(/\.[A-Za-z0-9]{1,5}$/, '')}.png`;
}
