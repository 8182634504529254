import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { attachmentDisposition } from './attachment-name.js';
import { sendCodeImage } from './code-image.js';
import { parseDownload } from './image-sizes.js';

/**
 * GET /codes/:id/download?format=svg | ?format=pdf | ?format=png&size=1024: the image as a file named after the code. A PNG
 * is the largest whole number of pixels per module that fits the size, so its name says the size it really has.
 */
export function downloadCodeImage(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const choice = parseDownload(req.query);
    if (!choice) throw new DashboardError(404, 'No such download', "Choose one of the downloads on the code's page.");
    await sendCodeImage(deps, req, res, {
      ...choice,
      attachment: (code, body) =>
        attachmentDisposition(code.name, choice.format === 'png' ? `-qr-${pngWidth(body)}px.png` : `-qr.${choice.format}`),
    });
  };
}

/** A PNG's width, from its IHDR chunk (the first, right after the 8-byte signature). */
function pngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}
