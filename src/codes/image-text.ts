import { liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { qrContentFor } from '../qr/render.js';
import type { WifiContent } from './types/index.js';
import { wifiString } from './types/wifi-string.js';

/** What a code's image is drawn from: its type, its slug, and (Wi-Fi only) its content. */
export interface ImageSubject {
  type: string;
  slug: string;
  content?: unknown;
}

/**
 * What a code's QR image encodes, decided here for every image of a code (the dashboard's downloads and
 * previews, the API's image, the import's ZIP), so they always agree: the short URL, except a Wi-Fi code set to
 * "join directly", whose image holds the network itself so a camera offers to join it.
 */
export function imageText(code: ImageSubject, siteUrl: string): string {
  if (code.type === 'WIFI' && isDirectWifi(code.content)) return wifiString(code.content);
  return qrContentFor(`${siteUrl}/r/${code.slug}`, siteUrl);
}

/** The same, for a stored code: only a Wi-Fi code's content is read (one indexed row), the others need none. */
export async function imageTextOfCode(db: Db, accountId: string, code: { id: string; type: string; slug: string }, siteUrl: string): Promise<string> {
  if (code.type !== 'WIFI') return imageText(code, siteUrl);
  const row = await liveCodesOf(db, accountId).select('content').where('id', '=', code.id).executeTakeFirst();
  return imageText({ ...code, content: row?.content }, siteUrl);
}

/** Whether the code's image holds the network (stored content was checked by the Wi-Fi schema when saved). */
export function isDirectWifi(content: unknown): content is WifiContent {
  return typeof content === 'object' && content !== null && (content as WifiContent).direct === true;
}
