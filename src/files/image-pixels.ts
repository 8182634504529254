import { imageSize } from 'image-size';

/**
 * A few hundred bytes of PNG can declare 40,000 × 40,000 pixels: decoding it takes gigabytes (resvg aborts the
 * process when an allocation fails, which no try/catch survives), and a phone showing it stalls. So images are
 * measured from their headers before anything decodes them:
 *
 * - stored images and logos: at most 100 megapixels (a 48-MP phone photo passes; a bomb does not);
 * - decoded on the server (a design's or the landing pages' logo, a contact card's photo): at most 16.7 megapixels
 *   (4096 × 4096, 64 MB as RGBA).
 */
export const MAX_STORED_IMAGE_PIXELS = 100_000_000;
export const MAX_DECODED_IMAGE_PIXELS = 4096 * 4096;

/** Width × height from the image's header, or undefined when the header cannot be read (not an image, cut short). */
export function imagePixels(bytes: Uint8Array): number | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width > 0 && height > 0 ? width * height : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the server may decode this image: its header is readable and it is within MAX_DECODED_IMAGE_PIXELS. */
export function decodableImage(bytes: Uint8Array): boolean {
  const pixels = imagePixels(bytes);
  return pixels !== undefined && pixels <= MAX_DECODED_IMAGE_PIXELS;
}
