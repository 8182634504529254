import type { RequestHandler, Response } from 'express';
import { Zip, ZipPassThrough } from 'fflate';
import { designsOfCodes } from '../../designs/index.js';
import { createdCodePages, type CreatedCode } from '../../imports/created-codes.js';
import { getImport } from '../../imports/import-rows.js';
import type { Design } from '../../qr/design/design.js';
import { RenderAbandonedError } from '../../qr/image-renderer.js';
import { type QrImageRequest } from '../../qr/render.js';
import { imageTextOfCode } from '../../codes/image-text.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { type DownloadChoice, parseDownload } from '../codes/image-sizes.js';
import { accountGate } from './account-gate.js';

/**
 * ZIPs rendering at once: one per account, and two per instance. A ZIP renders one image at a time, but each
 * takes a place in the render pool's queue (IMAGE_RENDER_QUEUE) that other accounts' images and previews need,
 * so a few dozen parallel ZIPs would otherwise answer everyone else's images with 503.
 */
export const ZIPS_PER_ACCOUNT = 1;
export const ZIPS_PER_INSTANCE = 2;

/** The PNG size of a link made before the ZIP offered every size (`?format=png`): about 8.7 cm at 300 dpi. */
export const ZIP_PNG_SIZE = 1024;

/**
 * The images a ZIP holds: the downloads the code's page offers (dashboard/codes/image-sizes.ts), by the same
 * query: `?format=svg`, `?format=pdf` or `?format=eps` (with the print shop's `size_mm`, `bleed_mm`, `crop_marks`,
 * `cmyk` if given), `?format=png&size=512|1024|2048|4096`; no format is SVG, as before. Undefined for anything else.
 */
export function zipChoice(query: Record<string, unknown>): ReturnType<typeof parseDownload> {
  if (query.format === undefined && query.size === undefined) return parseDownload({ format: 'svg' });
  if (query.format === 'png' && query.size === undefined) return parseDownload({ format: 'png', size: String(ZIP_PNG_SIZE) });
  return parseDownload(query);
}

/**
 * GET /imports/:id/qr-codes.zip?format=…: the QR image of every code the import created, streamed. Each
 * image is rendered (in the render pool, one at a time so a large ZIP never crowds out other renders) and written
 * into the ZIP as it is made, waiting for the client to take the bytes: memory holds one image, never the ZIP.
 * Images are stored, not deflated: PNGs are compressed already, and it keeps the stream simple.
 */
export function downloadImportZip(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  const gate = accountGate(
    { perAccount: ZIPS_PER_ACCOUNT, perInstance: ZIPS_PER_INSTANCE },
    { busyAccount: 'A download of QR images is already running', busyInstance: 'Other downloads of QR images are running' },
  );
  return async (req, res) => {
    const choice = zipChoice(req.query);
    if (!choice) throw new DashboardError(404, 'No such download', 'Choose one of the downloads on the import page.');
    if ('problems' in choice) throw new DashboardError(400, 'This PDF cannot be made', choice.problems.join(' '));
    const { accountId } = sessionOf(res).user;
    const summary = await getImport(deps.db, accountId, req.params.id);
    await gate(res, accountId, () => writeZip(deps, res, accountId, summary, choice));
  };
}

async function writeZip(
  deps: DashboardDependencies,
  res: Response,
  accountId: string,
  summary: Awaited<ReturnType<typeof getImport>>,
  choice: DownloadChoice,
): Promise<void> {
  const { format } = choice;
  res.status(200);
  res.setHeader('Content-Type', 'application/zip');
  const kind = format === 'png' ? `png-${choice.size}px` : 'print' in choice && choice.print ? `${format}-${choice.print.sizeMm}mm` : format;
  res.setHeader('Content-Disposition', `attachment; filename="qroute-import-${summary.createdAt.toISOString().slice(0, 10)}-${kind}.zip"`);
  res.setHeader('Cache-Control', 'no-store');

  let failure: Error | undefined;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else if (!res.destroyed) res.write(chunk);
    if (final && !res.destroyed) res.end();
  });
  const names = new Set<string>();
  // A client that goes away takes its waiting render out of the pool's queue, and the loop ends.
  const hungUp = new AbortController();
  res.once('close', () => hungUp.abort());
  for await (const page of createdCodePages(deps.db, summary.id)) {
    // Each code as it prints from its own page: its own design, its template's, or the default.
    const looks = await designsOfCodes(deps.db, accountId, page.map((code) => code.id));
    for (const code of page) {
      if (res.destroyed) return;
      let image: Buffer;
      try {
        image = await render(deps, accountId, code, choice, looks.get(code.id)?.design ?? null, hungUp.signal);
      } catch (error) {
        if (error instanceof RenderAbandonedError) return;
        throw error;
      }
      const entry = new ZipPassThrough(uniqueName(names, code, format));
      zip.add(entry);
      entry.push(image, true);
      if (failure) throw failure;
      if (res.writableNeedDrain) await drained(res);
    }
  }
  zip.end();
}

/** The same request the code's page download makes (codes/code-image.ts), so the ZIP holds the same images. */
async function render(deps: DashboardDependencies, accountId: string, code: CreatedCode, choice: DownloadChoice, design: Design | null, signal: AbortSignal): Promise<Buffer> {
  const request: QrImageRequest = {
    text: await imageTextOfCode(deps.db, accountId, code, deps.config.siteUrl),
    format: choice.format,
    size: choice.size,
    margin: 4,
    ecc: 'M',
    design,
    print: 'print' in choice ? (choice.print ?? null) : null,
  };
  return (await deps.images.renderer.render(request, signal)).body;
}

/** `0002-Spring menu.svg`: by line, so the files sort as the spreadsheet did, and named for people. */
function uniqueName(names: Set<string>, code: CreatedCode, format: string): string {
  const base = `${String(code.line).padStart(5, '0')}-${[...code.name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-').trim()].slice(0, 80).join('')}`;
  let name = `${base}.${format}`;
  for (let n = 2; names.has(name); n++) name = `${base}-${n}.${format}`;
  names.add(name);
  return name;
}

function drained(res: Response): Promise<void> {
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
