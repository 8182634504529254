import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { attachmentDisposition } from './attachment-name.js';
import { sendCodeImage } from './code-image.js';
import { type DownloadChoice, parseDownload } from './image-sizes.js';

/**
 * GET /codes/:id/download?format=svg | ?format=pdf|eps[&size_mm=50&bleed_mm=3&crop_marks=on&cmyk=on] |
 * ?format=png&size=1024: the image as a file named after the code. A PNG is exactly the size named (whole pixels
 * per module, the rest in the quiet zone); its name says its width, read from the file itself.
 */
export function downloadCodeImage(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const choice = parseDownload(req.query);
    if (!choice) throw new DashboardError(404, 'No such download', "Choose one of the downloads on the code's page.");
    if ('problems' in choice) throw new DashboardError(400, 'The print file was not made', choice.problems.join(' '));
    await sendCodeImage(deps, req, res, {
      ...choice,
      attachment: (code, body) => attachmentDisposition(code.name, fileSuffix(choice, body)),
    });
  };
}

/** `-qr-2048px.png`, `-qr.svg`, `-qr.pdf`, or for a print page `-qr-50mm-bleed3mm-cmyk.pdf`. */
function fileSuffix(choice: DownloadChoice, body: Buffer): string {
  if (choice.format === 'png') return `-qr-${pngWidth(body)}px.png`;
  if ((choice.format === 'pdf' || choice.format === 'eps') && choice.print) {
    const { sizeMm, bleedMm, cmyk } = choice.print;
    return `-qr-${sizeMm}mm${bleedMm > 0 ? `-bleed${bleedMm}mm` : ''}${cmyk ? '-cmyk' : ''}.${choice.format}`;
  }
  return `-qr.${choice.format}`;
}

/** A PNG's width, from its IHDR chunk (the first, right after the 8-byte signature). */
function pngWidth(png: Buffer): number {
  return png.readUInt32BE(16);
}
