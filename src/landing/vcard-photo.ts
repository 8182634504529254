import { decodableImage } from '../files/image-pixels.js';
import { renderAsync } from '@resvg/resvg-js';
import { LRUCache } from 'lru-cache';
import type { Db } from '../db/schema/index.js';
import { findLiveFile } from '../files/file-records.js';

/** A contact photo as the .vcf carries it. */
export interface VcardPhoto {
  type: 'JPEG' | 'PNG';
  bytes: Buffer;
}

/**
 * The largest photo inlined in a .vcf (before base64), so a card stays under about 90 KB however large the
 * uploaded photo: a phone shows a contact photo at a few hundred pixels at most.
 */
export const MAX_VCARD_PHOTO_BYTES = 64 * 1024;

/** Larger photos are not read into memory to be shrunk: the card goes out without one (the page still shows it). */
const MAX_SOURCE_BYTES = 25 * 1024 * 1024;

/** Square sides tried in turn until the PNG fits MAX_VCARD_PHOTO_BYTES. */
const SIDES = [256, 192, 128, 96];

/**
 * Contact photos for .vcf files, prepared once per instance and kept (files never change: a new upload is a new
 * id). A JPEG or PNG that already fits goes in as it is; anything else (larger, WebP, GIF) is drawn into a square
 * PNG by resvg, cropped to fill, the way contact apps show it. Nothing here may fail a scan: a photo that cannot
 * be read (database down, odd file) is left out of the card.
 */
export class VcardPhotos {
  private readonly prepared = new LRUCache<string, VcardPhoto | 'none'>({
    maxSize: 16 * 1024 * 1024,
    sizeCalculation: (photo) => (photo === 'none' ? 64 : photo.bytes.length + 64),
  });
  private readonly inFlight = new Map<string, Promise<VcardPhoto | 'none'>>();

  /** `waitMs`: as long as a scan waits for the database before it is answered from the cache (code-lookup.ts). */
  constructor(
    private readonly db: Db,
    private readonly waitMs = 1_500,
  ) {}

  async get(fileId: string | undefined): Promise<VcardPhoto | undefined> {
    if (!fileId) return undefined;
    const known = this.prepared.get(fileId);
    if (known) return known === 'none' ? undefined : known;
    let loading = this.inFlight.get(fileId);
    if (!loading) {
      loading = this.load(fileId).finally(() => this.inFlight.delete(fileId));
      this.inFlight.set(fileId, loading);
    }
    // A hung database must not hold the card: after the wait the card goes without its photo, and the load goes
    // on to fill the cache for the next scan.
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'none'>((resolve) => {
      timer = setTimeout(() => resolve('none'), this.waitMs);
    });
    try {
      const photo = await Promise.race([loading, late]);
      return photo === 'none' ? undefined : photo;
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private async load(fileId: string): Promise<VcardPhoto | 'none'> {
    const file = await findLiveFile(this.db, fileId);
    let photo: VcardPhoto | 'none' = 'none';
    if (file && file.sizeBytes <= MAX_SOURCE_BYTES && file.mediaType.startsWith('image/')) {
      const chunks = await this.db.selectFrom('file_chunks').select('data').where('file_id', '=', fileId).orderBy('index').execute();
      photo = (await vcardPhoto(Buffer.concat(chunks.map((c) => c.data)), file.mediaType)) ?? 'none';
    }
    // A deleted or unusable file is remembered too (it cannot come back under the same id).
    this.prepared.set(fileId, photo);
    return photo;
  }
}

/** The photo for a card from an image's bytes, within MAX_VCARD_PHOTO_BYTES; undefined if it cannot be drawn. */
export async function vcardPhoto(bytes: Buffer, mediaType: string): Promise<VcardPhoto | undefined> {
  // Never decoded (nor handed to a phone's contacts app) past the pixel budget: a bomb is left out of the card.
  if (!decodableImage(bytes)) return undefined;
  if (bytes.length <= MAX_VCARD_PHOTO_BYTES && (mediaType === 'image/jpeg' || mediaType === 'image/png')) {
    return { type: mediaType === 'image/jpeg' ? 'JPEG' : 'PNG', bytes };
  }
  const href = `data:${mediaType};base64,${bytes.toString('base64')}`;
  for (const side of SIDES) {
    const svg =
      `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}">` +
      `<image width="${side}" height="${side}" preserveAspectRatio="xMidYMid slice" href="${href}"/></svg>`;
    let png: Buffer;
    try {
      png = (await renderAsync(svg, { font: { loadSystemFonts: false }, logLevel: 'off' })).asPng();
    } catch {
      return undefined;
    }
    if (png.length <= MAX_VCARD_PHOTO_BYTES) return { type: 'PNG', bytes: png };
  }
  return undefined;
}
