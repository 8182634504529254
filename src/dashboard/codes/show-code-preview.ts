import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { sendCodeImage } from './code-image.js';
import { PREVIEW_SIZE } from './image-sizes.js';

/** GET /codes/:id/qr.svg: the preview on the code's page. */
export function showCodePreview(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return (req, res) => sendCodeImage(deps, req, res, { format: 'svg', size: PREVIEW_SIZE });
}
