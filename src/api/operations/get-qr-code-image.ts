import type { RequestHandler } from 'express';
import { imageTextOfCode } from '../../codes/image-text.js';
import { getQrCode as getCode } from '../../codes/qr-code-service.js';
import { designOfCode } from '../../designs/index.js';
import { errors } from '../../errors.js';
import { RenderAbandonedError, RenderQueueFullError } from '../../qr/image-renderer.js';
import { qrImageContentType, qrImageEtag, type ErrorCorrection, type QrFormat, type QrImageRequest } from '../../qr/render.js';
import type { PrintPage } from '../../qr/design/print-page.js';
import { callerOf, type ApiDependencies } from '../context.js';
import type { QueryParams } from '../contract.js';

export function getQrCodeImage({ db, config, images }: ApiDependencies): RequestHandler<{ id: string }> {
  const policy = `"images";q=${images.limiter.limit};w=${images.limiter.windowMs / 1000}`;
  return async (req, res) => {
    const { accountId } = callerOf(res);
    // Counted before anything is read or rendered, 304s included: each costs a lookup at least.
    const slot = images.limiter.take(accountId);
    const resetSeconds = Math.max(1, Math.ceil(slot.resetMs / 1000));
    res.setHeader('RateLimit-Policy', policy);
    res.setHeader('RateLimit', `"images";r=${slot.remaining};t=${resetSeconds}`);
    if (!slot.allowed) throw errors.imageReadsLimited(resetSeconds);

    // Validated by the contract; the fallbacks mirror its defaults.
    const query = req.query as QueryParams<'getQrCodeImage'>;
    const print = printPageOf(query);
    const [code, look] = await Promise.all([getCode(db, { accountId, id: req.params.id }), designOfCode(db, accountId, req.params.id)]);
    const request: QrImageRequest = {
      // The short URL, or a direct Wi-Fi code's network (image-text.ts decides for every image of a code).
      text: await imageTextOfCode(db, accountId, code, config.siteUrl),
      format: (query.format ?? 'svg') as QrFormat,
      // A PDF's or an EPS's size is physical (render-pdf.ts): one size for every request, so they share one render and ETag.
      size: query.format === 'pdf' || query.format === 'eps' ? 512 : Number(query.size ?? 512),
      margin: Number(query.margin ?? 4),
      ecc: (query.ecc ?? 'M') as ErrorCorrection,
      // The look saved in the dashboard, so a designed code prints the same from here; none for API-created codes.
      design: look.design,
      print,
    };
    const etag = qrImageEtag(request);
    res.setHeader('ETag', etag);
    // Revalidated on every use: the image changes when the code's design does, and a 304 costs no render.
    res.setHeader('Cache-Control', 'private, no-cache');
    // Before rendering: a client that has the image costs no render at all.
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }

    // A client that hangs up (even while its code was being looked up) takes its render out of the queue.
    const hungUp = new AbortController();
    const onClose = () => {
      if (!res.writableFinished) hungUp.abort();
    };
    if (res.closed) hungUp.abort();
    else res.once('close', onClose);
    let image;
    try {
      image = await images.renderer.render(request, hungUp.signal);
    } catch (error) {
      if (error instanceof RenderAbandonedError) return; // nobody to answer
      if (error instanceof RenderQueueFullError) throw errors.renderersBusy();
      throw error;
    } finally {
      res.off('close', onClose);
    }
    if (res.closed) return;
    res.status(200).type(qrImageContentType(request.format)).send(image.body);
  };
}

const PRINT_PARAMETERS = ['size_mm', 'bleed_mm', 'crop_marks', 'cmyk'] as const;

/**
 * The print page a PDF or EPS request asks for, or null for the default page. The contract checks each value's range;
 * asking for a page with another format is refused rather than ignored, so a client does not believe its PNG has
 * a bleed.
 */
function printPageOf(query: QueryParams<'getQrCodeImage'>): PrintPage | null {
  // The contract fills in false for the switches left out, so a switch counts as asked for only when true.
  const given = PRINT_PARAMETERS.filter((name) => query[name] !== undefined && String(query[name]) !== 'false');
  if (given.length === 0) return null;
  if (query.format !== 'pdf' && query.format !== 'eps') {
    throw errors.invalidQuery(given.map((name) => ({ path: `/query/${name}`, message: 'is only used with format=pdf or format=eps' })));
  }
  return {
    sizeMm: Number(query.size_mm ?? 50),
    bleedMm: Number(query.bleed_mm ?? 0),
    cropMarks: String(query.crop_marks) === 'true',
    cmyk: String(query.cmyk) === 'true',
  };
}
