import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A QR matrix as a 1-bit grayscale PNG: `scale` pixels per module, `margin` light modules around it, and the image
 * `pixels` wide and high when given (at least the code's own size): the pixels left over widen the quiet zone,
 * centred (the odd one right and below), so every module stays whole and crisp. One bit
 * per pixel instead of the 32 of RGBA (what the qrcode package writes) makes a 4096-pixel image 2 MB of raw
 * rows instead of 64 MB, so building and deflating it costs milliseconds, not a second and a half.
 */
export function encodeQrPng(
  modules: { size: number; get(row: number, col: number): number | boolean },
  scale: number,
  margin: number,
  pixels = (modules.size + 2 * margin) * scale,
): Buffer {
  const offset = margin * scale + Math.floor((pixels - (modules.size + 2 * margin) * scale) / 2);
  if (offset < margin * scale) throw new RangeError('the image is smaller than the code with its quiet zone');
  const rowBytes = Math.ceil(pixels / 8);
  // Each row: a filter byte (0, none), then the pixels, MSB first; 1 is white, 0 is black.
  const raw = Buffer.alloc((rowBytes + 1) * pixels, 0xff);
  for (let y = 0; y < pixels; y++) raw[y * (rowBytes + 1)] = 0;
  // Unused bits at the end of a row are padding; white like the quiet zone.
  for (let row = 0; row < modules.size; row++) {
    const line = Buffer.alloc(rowBytes + 1, 0xff);
    line[0] = 0;
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      const x0 = offset + col * scale;
      for (let x = x0; x < x0 + scale; x++) line[1 + (x >> 3)]! &= ~(0x80 >> (x & 7));
    }
    const y0 = offset + row * scale;
    for (let y = y0; y < y0 + scale; y++) line.copy(raw, y * (rowBytes + 1));
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(pixels, 0);
  header.writeUInt32BE(pixels, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // grayscale
  header[10] = 0; // deflate
  header[11] = 0; // adaptive filtering (every row says "none")
  header[12] = 0; // no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}
