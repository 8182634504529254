import type { RequestHandler } from 'express';
import { getDesignTemplate } from '../../designs/index.js';
import { RenderQueueFullError } from '../../qr/image-renderer.js';
import { qrImageEtag, type QrImageRequest } from '../../qr/render.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { sampleText } from './render-preview.js';

/** GET /designs/:id/preview.svg: the small preview in the template list, drawn in the image pool and cached. */
export function showTemplatePreviewImage(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const template = await getDesignTemplate(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    const request: QrImageRequest = { text: sampleText(deps), format: 'svg', size: 128, margin: 4, ecc: 'M', design: template.design };
    const etag = qrImageEtag(request);
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    try {
      const image = await deps.images.renderer.render(request);
      res.type('image/svg+xml').send(image.body);
    } catch (error) {
      if (error instanceof RenderQueueFullError) throw new DashboardError(503, 'Too many QR images are being drawn right now', 'Try again in a moment.');
      throw error;
    }
  };
}
