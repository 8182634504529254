import { once } from 'node:events';
import type { Request, Response } from 'express';
import type { Db } from '../db/schema/index.js';
import { contentDisposition } from './content-disposition.js';
import { findLiveFile, type StoredFile } from './file-records.js';
import { parseRange } from './http-range.js';

export interface ServeFileTarget {
  /** The signed-in account's id (dashboard): another account's file is then 404. Unset: a public page's file. */
  accountId?: string;
  fileId: string;
}

/** `?download=1` (a page's "Download" link): the file is saved under its name instead of shown. */
export const DOWNLOAD_QUERY = 'download=1';

/**
 * Answers a GET or HEAD for a stored file: the whole file or one byte range (206, reading only the chunks it
 * covers, so audio and video seek), 304 for a current ETag, 404 for a file that is not there (or not the
 * account's). Bytes go out chunk by chunk with back-pressure and stop when the client leaves. Shown `inline`,
 * or as an `attachment` with `?download=1`.
 */
export async function serveFile(db: Db, req: Request, res: Response, target: ServeFileTarget): Promise<void> {
  const file = await findLiveFile(db, target.fileId, target.accountId);
  if (file === undefined) {
    res.status(404).set({ 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' }).type('text/plain').send('No file with this id.\n');
    return;
  }
  const etag = `"${file.sha256}"`;
  res.set({
    ETag: etag,
    'Cache-Control': target.accountId === undefined ? PUBLIC_CACHE : PRIVATE_CACHE,
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': contentSecurityPolicy(file),
  });
  // A browser opening an audio or video URL plays it in a page of its own, sandboxed here (an opaque origin),
  // whose player asks for the URL again in CORS mode: without this answer it stays empty. The file is public to
  // anyone with its link already; the dashboard's copy (signed in, by account) is never shared this way.
  if (target.accountId === undefined && isMedia(file)) res.set('Access-Control-Allow-Origin', '*');
  if (matchesEtag(req.get('If-None-Match'), etag)) {
    res.status(304).end();
    return;
  }
  const ifRange = req.get('If-Range');
  const range = ifRange === undefined || ifRange === etag ? parseRange(req.get('Range'), file.sizeBytes) : parseRange(undefined, 0);
  if (range.kind === 'unsatisfiable') {
    res.status(416).set('Content-Range', `bytes */${file.sizeBytes}`).end();
    return;
  }
  const [start, end] = range.kind === 'part' ? [range.start, range.end] : [0, file.sizeBytes - 1];
  if (range.kind === 'part') res.status(206).set('Content-Range', `bytes ${start}-${end}/${file.sizeBytes}`);
  res.set({
    'Content-Type': file.mediaType,
    'Content-Length': String(end - start + 1),
    'Content-Disposition': contentDisposition(req.query.download === '1' ? 'attachment' : 'inline', file.originalName),
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await sendBytes(db, res, file, start, end);
}

/**
 * The file changes never (a new upload is a new id) but can be deleted: a public copy is kept 5 minutes, so a
 * deleted file is gone from caches soon; the dashboard's copy is revalidated every time (a cheap 304).
 */
const PUBLIC_CACHE = 'public, max-age=300';
const PRIVATE_CACHE = 'private, no-cache';

/**
 * Nothing in a served file may run with this site's origin. Images, audio and video get the sandbox (a page
 * opened straight from a file URL is then an opaque origin) and no sources but their own: a browser opening an
 * audio or video URL shows it in a page of its own whose player loads the URL again, as media, so audio and
 * video allow `media-src 'self'` (without it that player stays empty). A PDF cannot have `sandbox`: Chrome
 * refuses to show PDFs in a sandboxed document; its viewers (PDFium, pdf.js) run a PDF's scripts in their own
 * sandbox, and `nosniff` with a content-checked type keeps it a PDF.
 */
function contentSecurityPolicy(file: StoredFile): string {
  if (file.mediaType === 'application/pdf') {
    return "default-src 'none'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'";
  }
  const media = isMedia(file) ? " media-src 'self';" : '';
  return `default-src 'none';${media} style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox`;
}

function isMedia(file: StoredFile): boolean {
  return file.mediaType.startsWith('audio/') || file.mediaType.startsWith('video/');
}

function matchesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** Reads the chunks covering [start, end] one at a time, so memory holds one chunk whatever the file's size. */
async function sendBytes(db: Db, res: Response, file: StoredFile, start: number, end: number): Promise<void> {
  const firstChunk = Math.floor(start / file.chunkSize);
  const lastChunk = Math.floor(end / file.chunkSize);
  for (let index = firstChunk; index <= lastChunk; index++) {
    if (res.destroyed) return;
    const row = await db
      .selectFrom('file_chunks')
      .select('data')
      .where('file_id', '=', file.id)
      .where('index', '=', index)
      .executeTakeFirst();
    // Deleted while being sent: the length promised cannot be kept, so the connection is cut.
    if (row === undefined) {
      res.destroy();
      return;
    }
    const offset = index * file.chunkSize;
    const from = Math.max(start - offset, 0);
    const to = Math.min(end - offset + 1, row.data.length);
    if (!res.write(row.data.subarray(from, to))) await drainedOrClosed(res);
  }
  res.end();
}

async function drainedOrClosed(res: Response): Promise<void> {
  const ac = new AbortController();
  await Promise.race([once(res, 'drain', { signal: ac.signal }), once(res, 'close', { signal: ac.signal })]).finally(() => ac.abort());
}
