import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { FileKind } from '../db/schema/files.js';
import type { Db, Transaction } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { newId } from '../ids.js';
import { CHUNK_SIZE, chunksOf } from './chunks.js';
import { FileRejectedError, megabytes } from './file-errors.js';
import { accountStorageUsed, findLiveFile, type StoredFile } from './file-records.js';
import { MAX_STORED_IMAGE_PIXELS, imagePixels } from './image-pixels.js';
import { detectMediaType } from './media-types.js';
import { MAX_SVG_BYTES, rasteriseSvg } from './svg-logo.js';

export interface FileLimits {
  maxFileBytes: number;
  accountStorageBytes: number;
}

export interface FileUpload {
  accountId: string;
  kind: FileKind;
  /** The uploader's file name: shown and offered on download, never trusted for the type. */
  name: string;
  stream: AsyncIterable<Uint8Array | string>;
}

interface Budget {
  limits: FileLimits;
  /** The account's use when the upload began; the final check re-reads it under a lock. */
  usedAtStart: number;
}

/**
 * Stores an upload chunk by chunk (never whole in memory) in one transaction, so a refused or broken upload
 * leaves nothing behind. The type comes from the content of the first chunk; an SVG logo is stored as PNG.
 * Throws FileRejectedError for an empty, unsupported, too large or over-quota file.
 */
export async function storeFile(db: Db, upload: FileUpload, limits: FileLimits): Promise<StoredFile> {
  return inTransaction(db, async (trx) => {
    const usedAtStart = await accountStorageUsed(trx, upload.accountId);
    const budget = { limits, usedAtStart };
    if (usedAtStart >= limits.accountStorageBytes) throw storageFull(limits);
    const chunks = chunksOf(upload.stream, CHUNK_SIZE);
    try {
      return await storeChunks(trx, upload, chunks, budget);
    } finally {
      // Ends the reading of an upload refused part way, so its stream is released (destroyed), not left paused.
      await chunks.return(undefined);
    }
  });
}

async function storeChunks(
  trx: Transaction,
  upload: FileUpload,
  chunks: AsyncGenerator<Buffer>,
  budget: Budget,
): Promise<StoredFile> {
  const first = await chunks.next();
  if (first.done === true) throw new FileRejectedError('empty_file', 'This file is empty.');
  const detected = await detectMediaType(upload.kind, first.value);
  if (!detected.svg && (upload.kind === 'image' || upload.kind === 'logo')) refuseImageBomb(first.value);
  const fileId = newId('fil');
  const name = cleanName(upload.name, detected.svg);
  const mediaType = detected.svg ? 'image/png' : detected.mediaType;
  await trx
    .insertInto('files')
    .values({
      id: fileId,
      account_id: upload.accountId,
      kind: upload.kind,
      media_type: mediaType,
      original_name: name,
      size_bytes: 0,
      chunk_size: CHUNK_SIZE,
      sha256: '',
    })
    .execute();
  const body = detected.svg ? rasterised(first.value, chunks) : prepend(first.value, chunks);
  const { size, sha256 } = await writeChunks(trx, fileId, body, budget);
  await checkAccountStorage(trx, upload.accountId, size, budget.limits);
  await trx.updateTable('files').set({ size_bytes: size, sha256 }).where('id', '=', fileId).execute();
  const stored = await findLiveFile(trx, fileId);
  if (stored === undefined) throw new Error(`file ${fileId} vanished inside its own transaction`);
  return stored;
}

async function writeChunks(trx: Transaction, fileId: string, body: AsyncIterable<Buffer>, budget: Budget) {
  const hash = createHash('sha256');
  let size = 0;
  let index = 0;
  for await (const chunk of body) {
    size += chunk.length;
    checkSize(size, budget);
    hash.update(chunk);
    await trx.insertInto('file_chunks').values({ file_id: fileId, index, data: chunk }).execute();
    index += 1;
  }
  return { size, sha256: hash.digest('hex') };
}

/**
 * An image whose header declares more pixels than any real photo (see image-pixels.ts) is refused: phones showing
 * it would stall. Formats whose size sits past the first chunk are not measured here; the server never decodes an
 * image without measuring it first.
 */
function refuseImageBomb(head: Buffer): void {
  const pixels = imagePixels(head);
  if (pixels !== undefined && pixels > MAX_STORED_IMAGE_PIXELS) {
    throw new FileRejectedError('image_too_large', `This image has ${Math.round(pixels / 1e6).toLocaleString('en')} megapixels; images may have at most ${MAX_STORED_IMAGE_PIXELS / 1e6}.`);
  }
}

/** Refuses as soon as the bytes read pass a limit, without reading the rest of the upload. */
function checkSize(size: number, { limits, usedAtStart }: Budget): void {
  if (size > limits.maxFileBytes) {
    throw new FileRejectedError('file_too_large', `This file is larger than ${megabytes(limits.maxFileBytes)}, the most one file may be.`);
  }
  if (usedAtStart + size > limits.accountStorageBytes) throw storageFull(limits);
}

/**
 * The check that holds under concurrent uploads: the account row is locked (NO KEY UPDATE, so inserts that
 * merely reference the account are not blocked), then the live total is read again. A second upload waits
 * for the lock and, in READ COMMITTED, then sees the first one's committed file.
 */
async function checkAccountStorage(trx: Transaction, accountId: string, size: number, limits: FileLimits): Promise<void> {
  await sql`select 1 from accounts where id = ${accountId} for no key update`.execute(trx);
  const used = await accountStorageUsed(trx, accountId);
  if (used + size > limits.accountStorageBytes) throw storageFull(limits);
}

function storageFull(limits: FileLimits): FileRejectedError {
  return new FileRejectedError(
    'storage_full',
    `This upload would take the account past its ${megabytes(limits.accountStorageBytes)} of file storage; delete codes you no longer need, or take files off codes, to make room.`,
  );
}

async function* prepend(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  yield first;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) yield next.value;
}

/** The SVG is read whole (it is text to parse, capped at MAX_SVG_BYTES), and its PNG is what gets chunked. */
async function* rasterised(first: Buffer, rest: AsyncIterator<Buffer>): AsyncGenerator<Buffer> {
  const parts = [first];
  let size = first.length;
  for (let next = await rest.next(); next.done !== true; next = await rest.next()) {
    size += next.value.length;
    if (size > MAX_SVG_BYTES) {
      throw new FileRejectedError('file_too_large', `An SVG logo may be at most ${megabytes(MAX_SVG_BYTES)}.`);
    }
    parts.push(next.value);
  }
  const png = await rasteriseSvg(Buffer.concat(parts, size));
  for (let offset = 0; offset < png.length; offset += CHUNK_SIZE) {
    yield png.subarray(offset, Math.min(offset + CHUNK_SIZE, png.length));
  }
}

/** The last path segment, without control characters, at most 200 characters; a logo's SVG name ends .png. */
export function cleanName(raw: string, rasterisedSvg: boolean): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  let name = base.normalize('NFC').replace(/[\u0000-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').trim().slice(0, 200);
  if (name === '' || name === '.' || name === '..') name = 'file';
  return rasterisedSvg ? `${name.replace(/\.svgz?$/i, '')}.png` : name;
}
