import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { PNG } from 'pngjs';
import type { FileKind } from '../../src/db/schema/files.js';
import type { Db } from '../../src/db/schema/index.js';
import { type FileLimits, storeFile } from '../../src/files/store-file.js';
import type { StoredFile } from '../../src/files/file-records.js';

/** Smallest real files of each kind the content check accepts (their bytes, not their names, say what they are). */
export function png(width = 4, height = 4, rgba: [number, number, number, number] = [255, 0, 0, 255]): Buffer {
  const image = new PNG({ width, height });
  for (let i = 0; i < image.data.length; i += 4) image.data.set(rgba, i);
  return PNG.sync.write(image);
}

export const pdf = () => Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n');

/**
 * `frames` MPEG-1 Layer III frames (128 kbit/s, 44.1 kHz, 417 bytes and 1,152 samples each) of silence: a header
 * and zeros is a frame with no audio data, which a browser decodes and can tell the duration of.
 */
export function mp3(frames = 3): Buffer {
  const bytes = Buffer.alloc(417 * frames);
  for (let i = 0; i < frames; i++) bytes.set([0xff, 0xfb, 0x90, 0x64], i * 417);
  return bytes;
}

export function ftyp(brand: string): Buffer {
  const box = Buffer.alloc(32);
  box.writeUInt32BE(32, 0);
  box.write('ftyp', 4);
  box.write(brand, 8);
  box.write(brand, 16);
  return box;
}

export const mp4 = () => Buffer.concat([ftyp('isom'), randomBytes(1024)]);

/** An MP4 header followed by `size` random bytes, generated as it is read (a test never holds it whole). */
export function streamedMp4(size: number): Readable {
  let left = size;
  return Readable.from(
    (function* () {
      yield ftyp('isom');
      while (left > 0) {
        const n = Math.min(64 * 1024, left);
        left -= n;
        yield randomBytes(n);
      }
    })(),
  );
}

const MB = 1024 * 1024;
export const GENEROUS_FILE_LIMITS: FileLimits = { maxFileBytes: 50 * MB, accountStorageBytes: 500 * MB };

/** Stores a real file for the account through the same path an upload takes. */
export function storeSampleFile(db: Db, accountId: string, kind: FileKind, name: string, bytes: Buffer): Promise<StoredFile> {
  return storeFile(db, { accountId, kind, name, stream: Readable.from([bytes]) }, GENEROUS_FILE_LIMITS);
}
