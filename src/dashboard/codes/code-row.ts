import type { QrCode } from '../../codes/index.js';
import { presentQrCode } from '../../api/presenters.js';

/** A code with the short URL this instance prints for it (built where the API builds it). */
export type ShownCode = QrCode & { shortUrl: string };

export function withShortUrl(code: QrCode, siteUrl: string): ShownCode {
  return { ...code, shortUrl: presentQrCode(code, siteUrl).shortUrl };
}

/** Long destinations are cut for the list (the code's page shows them whole). */
export function shortened(text: string, max = 60): string {
  return [...text].length > max ? `${[...text].slice(0, max - 1).join('')}…` : text;
}

export const numberFormat = new Intl.NumberFormat('en-GB');
