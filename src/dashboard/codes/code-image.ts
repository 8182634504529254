import type { Request, Response } from 'express';
import { imageTextOfCode } from '../../codes/image-text.js';
import { getQrCode, type QrCode } from '../../codes/index.js';
import { designOfCode } from '../../designs/index.js';
import type { PrintPage } from '../../qr/design/print-page.js';
import { RenderAbandonedError, RenderQueueFullError } from '../../qr/image-renderer.js';
import { qrImageContentType, qrImageEtag, type QrFormat, type QrImageRequest } from '../../qr/render.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';

/**
 * Sends the QR image of the account's code `:id` the way the API's image operation does (get-qr-code-image.ts):
 * the same content, the code's design (or the API's default quiet zone and error correction), the same ETag, the
 * same render pool and cache. Reads count against the account's image read limit that the API uses, so a session cannot render
 * more than a key could. `private, no-cache`: the browser keeps the image but asks again each time, which costs
 * one indexed lookup and a 304, and stops showing it once the code is deleted or the person signs out.
 */
export async function sendCodeImage(
  deps: DashboardDependencies,
  req: Request<{ id: string }>,
  res: Response,
  image: { format: QrFormat; size: number; print?: PrintPage | undefined; attachment?: (code: QrCode, body: Buffer) => string },
): Promise<void> {
  const { accountId } = sessionOf(res).user;
  const slot = deps.images.limiter.take(accountId);
  if (!slot.allowed) {
    const seconds = Math.max(1, Math.ceil(slot.resetMs / 1000));
    res.setHeader('Retry-After', String(seconds));
    throw new DashboardError(429, 'Too many QR images at once', `This account asked for many QR images in the last minute. Try again in ${seconds} seconds.`);
  }
  const [code, look] = await Promise.all([getQrCode(deps.db, { accountId, id: req.params.id }), designOfCode(deps.db, accountId, req.params.id)]);
  const request: QrImageRequest = {
    text: await imageTextOfCode(deps.db, accountId, code, deps.config.siteUrl),
    format: image.format,
    size: image.size,
    margin: 4,
    ecc: 'M',
    design: look.design,
    print: image.print ?? null,
  };
  const etag = qrImageEtag(request);
  if (req.headers['if-none-match'] === etag) {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.status(304).end();
    return;
  }
  const body = await render(deps, request, res);
  if (!body || res.closed) return;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'private, no-cache');
  if (image.attachment) res.setHeader('Content-Disposition', image.attachment(code, body));
  res.status(200).type(qrImageContentType(request.format)).send(body);
}

/** Renders in the pool; a person who leaves the page takes their waiting render out of the queue. */
async function render(deps: DashboardDependencies, request: QrImageRequest, res: Response): Promise<Buffer | undefined> {
  const hungUp = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) hungUp.abort();
  };
  if (res.closed) hungUp.abort();
  else res.once('close', onClose);
  try {
    return (await deps.images.renderer.render(request, hungUp.signal)).body;
  } catch (error) {
    if (error instanceof RenderAbandonedError) return undefined;
    if (error instanceof RenderQueueFullError) {
      throw new DashboardError(503, 'Too many QR images are being drawn right now', 'Try again in a moment.');
    }
    throw error;
  } finally {
    res.off('close', onClose);
  }
}
