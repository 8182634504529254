import { sql } from 'kysely';
import { CODE_CHANGES_CHANNEL } from '../db/channels.js';
import type { Db, Transaction } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { deleteFile, findLiveFile, namedByLiveCode } from '../files/file-records.js';

/** An account's look on its landing pages; null fields mean qroute's own. */
export interface Branding {
  /** `#rrggbb`, lower case. */
  color: string | null;
  /** A stored file of kind `logo` (served at /files/<id>). */
  logoFileId: string | null;
}

export class BrandingError extends Error {}

const HEX_COLOR = /^#[0-9a-f]{6}$/;

/**
 * `#rrggbb` or `#rgb`, any case, surrounding spaces ignored; undefined for anything else. Stored lower case,
 * the form the database CHECK accepts.
 */
export function parseBrandColor(typed: string): string | undefined {
  const text = typed.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  const full = short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : text;
  return HEX_COLOR.test(full) ? full : undefined;
}

/** WCAG 2.x relative luminance of an `#rrggbb` colour. */
function luminance(color: string): number {
  const channel = (offset: number) => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** WCAG contrast ratio between two `#rrggbb` colours, 1 to 21. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The text colour for buttons filled with the brand colour: white when white reaches WCAG AA (4.5:1), else
 * black. Any colour is accepted rather than refused: brand colours are fixed by brand guidelines (a yellow, a
 * light green), and one of white or black always reaches AA on any colour (the worse case is about 4.58:1).
 */
export function textColorOn(color: string): '#ffffff' | '#000000' {
  return contrastRatio(color, '#ffffff') >= 4.5 ? '#ffffff' : '#000000';
}

export async function getBranding(db: Db, accountId: string): Promise<Branding> {
  const row = await db
    .selectFrom('accounts')
    .select(['brand_color', 'brand_logo_file_id'])
    .where('id', '=', accountId)
    .executeTakeFirst();
  if (!row) throw new BrandingError(`no account ${accountId}`);
  return { color: row.brand_color, logoFileId: row.brand_logo_file_id };
}

/** Sets (or with null, clears) the colour. Throws BrandingError for anything that is not a hex colour. */
export async function setBrandColor(db: Db, accountId: string, typed: string | null): Promise<Branding> {
  const color = typed === null ? null : parseBrandColor(typed);
  if (color === undefined) throw new BrandingError('Enter the colour as # and six hex digits, for example #1f5fbf.');
  return inTransaction(db, async (trx) => {
    await trx.updateTable('accounts').set({ brand_color: color }).where('id', '=', accountId).execute();
    await announce(trx, accountId);
    return getBranding(trx, accountId);
  });
}

/**
 * Makes a stored logo file the account's logo. The file must be the account's own, live, and stored as a logo
 * (an SVG rasterised, the type checked by content); the logo it replaces is deleted, freeing its storage.
 */
export async function setBrandLogo(db: Db, accountId: string, fileId: string): Promise<Branding> {
  return inTransaction(db, async (trx) => {
    // Locked until the logo is stored, so the unreferenced-upload prune cannot delete it in between.
    const file = await findLiveFile(trx, fileId, accountId, { lock: 'key share' });
    if (!file || file.kind !== 'logo') throw new BrandingError('This logo file is not available; upload it again.');
    return replaceLogo(trx, accountId, fileId);
  });
}

/** Removes the logo (its file is deleted); pages go back to showing none. */
export async function removeBrandLogo(db: Db, accountId: string): Promise<Branding> {
  return inTransaction(db, (trx) => replaceLogo(trx, accountId, null));
}

async function replaceLogo(trx: Transaction, accountId: string, fileId: string | null): Promise<Branding> {
  // The row lock orders two concurrent replacements, so each deletes the logo the other left, never the new one.
  const before = await trx
    .selectFrom('accounts')
    .select('brand_logo_file_id')
    .where('id', '=', accountId)
    .forUpdate()
    .executeTakeFirst();
  if (!before) throw new BrandingError(`no account ${accountId}`);
  await trx.updateTable('accounts').set({ brand_logo_file_id: fileId }).where('id', '=', accountId).execute();
  if (before.brand_logo_file_id && before.brand_logo_file_id !== fileId) await releaseOldLogo(trx, accountId, before.brand_logo_file_id);
  await announce(trx, accountId);
  return getBranding(trx, accountId);
}

/**
 * The replaced logo's file is deleted (freeing its storage) unless a live code shows it too: a vCard's or contact's
 * photo may name a logo file. Locked FOR UPDATE first, then checked in a statement of its own (see namedByLiveCode).
 */
async function releaseOldLogo(trx: Transaction, accountId: string, fileId: string): Promise<void> {
  const file = await findLiveFile(trx, fileId, accountId, { lock: 'update' });
  if (file && !(await namedByLiveCode(trx, accountId, fileId))) await deleteFile(trx, accountId, fileId);
}

/**
 * Tells every instance's slug cache (src/redirect/code-lookup.ts) to drop this account's codes on commit, so a
 * branding change shows on the next scan rather than within the cache's 10 s TTL. One notification per account,
 * not one per code: slugs never contain ':', so the payload cannot be mistaken for one.
 */
async function announce(trx: Transaction, accountId: string): Promise<void> {
  await sql`select pg_notify(${CODE_CHANGES_CHANNEL}, ${accountChangePayload(accountId)})`.execute(trx);
}

export function accountChangePayload(accountId: string): string {
  return `account:${accountId}`;
}
