import { sql } from 'kysely';
import { CODE_CHANGES_CHANNEL } from '../db/channels.js';
import type { Db, Transaction } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { deleteFile, findLiveFile, namedByLiveCode } from '../files/file-records.js';
import { parseBrandColor } from './brand-color.js';

/** An account's look on its landing pages; null fields mean qroute's own. */
export interface Branding {
  /** `#rrggbb`, lower case. */
  color: string | null;
  /** A stored file of kind `logo` (served at /files/<id>). */
  logoFileId: string | null;
}

export class BrandingError extends Error {}

// The colour rules are pure (the dashboard's preview reads them), so they live apart; re-exported for existing callers.
export { contrastRatio, parseBrandColor, textColorOn } from './brand-color.js';

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
