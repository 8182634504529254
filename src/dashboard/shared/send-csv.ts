import type { Response } from 'express';

/**
 * Streams CSV chunks to the browser as a download. Each chunk is written only when the socket has taken the
 * previous ones (back-pressure: a slow client slows the export's queries instead of filling memory), and the
 * export stops as soon as the client goes away: leaving the loop ends the generator, so no further query runs.
 * A failure after the first byte cannot become an error page any more; the error handler then cuts the
 * connection, so the download fails visibly instead of ending short as if complete.
 */
export async function sendCsv(res: Response, filename: string, chunks: AsyncIterable<string>): Promise<void> {
  res.status(200);
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${safeFilename(filename)}"`);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  for await (const chunk of chunks) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drainedOrClosed(res);
    if (res.destroyed) return;
  }
  res.end();
}

function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Letters, digits, dot, dash and underscore only: nothing that could end the header's quoted value or a path. */
export function safeFilename(name: string): string {
  const cleaned = asciiPart(name, /[^A-Za-z0-9._-]+/g).replace(/^\.+/, '');
  return cleaned === '' ? 'scans.csv' : cleaned.slice(0, 120);
}

/** `summer-poster-scans-2026-11-23.csv`: what the download is called, from a readable part and today's date. */
export function csvFilename(readable: string, at = new Date()): string {
  const part = asciiPart(readable.toLowerCase(), /[^a-z0-9]+/g).slice(0, 60).replace(/-+$/, '');
  return `${part || 'qroute'}-scans-${at.toISOString().slice(0, 10)}.csv`;
}

/** Accents dropped (é → e), every run of other characters one dash, none at the ends. */
function asciiPart(text: string, unsafe: RegExp): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(unsafe, '-')
    .replace(/^-+|-+$/g, '');
}
