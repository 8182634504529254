import { type Selectable, sql } from 'kysely';
import { codeLimitOf } from '../accounts/plans.js';
import type { Db } from '../db/schema/index.js';
import type { QrCodesTable } from '../db/schema/qr-codes.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors.js';
import { idPattern, microsToDate, newId, nowMicros } from '../ids.js';
import { claimIdempotencyKey, hashRequest, storeIdempotentResponse } from './idempotency.js';
import { newSlug } from './slugs.js';

export interface QrCode {
  id: string;
  name: string;
  type: string;
  slug: string;
  destinationUrl: string;
  scanCount: number;
  active: boolean;
  createdAt: Date;
}

export interface Scan {
  createdAt: Date;
  device: string;
  os: string;
  browser: string;
}

/** SPEC: the scans endpoint returns the last 1000 scans. */
export const RECENT_SCANS_LIMIT = 1000;
const SLUG_ATTEMPTS = 5;

const QR_CODE_ID = idPattern('qr');

/**
 * Any path id that is not even shaped like a code id names no code: 404 without a query (and without sending
 * PostgreSQL a string it cannot store, such as one with a NUL character).
 */
function assertCodeId(id: string): void {
  if (!QR_CODE_ID.test(id)) throw errors.notFound();
}

const codeColumns = ['id', 'name', 'type', 'slug', 'destination_url', 'scan_count', 'active', 'created_at'] as const;

/** Expects a trimmed name and an already normalized destination (see `parseDestinationUrl`). */
export async function createQrCode(
  db: Db,
  input: { accountId: string; name: string; destinationUrl: string; idempotencyKey?: string },
): Promise<{ code: QrCode; replayed: boolean }> {
  return inTransaction(db, async (trx) => {
    const { idempotencyKey, accountId } = input;
    if (idempotencyKey !== undefined) {
      const requestHash = hashRequest({ name: input.name, url: input.destinationUrl });
      const claim = await claimIdempotencyKey(trx, { accountId, key: idempotencyKey, requestHash });
      if (claim.kind === 'key_reused') throw errors.idempotencyKeyReused();
      if (claim.kind === 'replay') return { code: fromStoredCode(claim.body), replayed: true };
    }

    // The row lock makes check-then-increment atomic: concurrent creates of one account queue here.
    const account = await trx
      .selectFrom('accounts')
      .select(['plan', 'code_limit', 'code_count'])
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const limit = codeLimitOf(account);
    if (account.code_count >= limit) throw errors.planLimitReached(limit, account.code_count);
    await trx.updateTable('accounts').set({ code_count: sql`code_count + 1` }).where('id', '=', accountId).execute();

    const code = await insertWithFreshSlug(trx, { accountId, name: input.name, destinationUrl: input.destinationUrl });
    if (idempotencyKey !== undefined) {
      await storeIdempotentResponse(trx, { accountId, key: idempotencyKey, status: 201, body: code });
    }
    return { code, replayed: false };
  });
}

async function insertWithFreshSlug(
  trx: Db,
  input: { accountId: string; name: string; destinationUrl: string },
): Promise<QrCode> {
  // One instant for both, so `createdAt` order and id order agree.
  const micros = nowMicros();
  const now = microsToDate(micros);
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const row = await trx
      .insertInto('qr_codes')
      .values({
        id: newId('qr', micros),
        account_id: input.accountId,
        name: input.name,
        slug: newSlug(),
        destination_url: input.destinationUrl,
        created_at: now,
        updated_at: now,
      })
      // Deleted codes keep their row, so this also keeps a deleted code's slug from ever being handed out again.
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning(codeColumns)
      .executeTakeFirst();
    if (row) return toQrCode(row);
  }
  throw new Error(`no free slug after ${SLUG_ATTEMPTS} attempts`);
}

export async function listQrCodes(
  db: Db,
  input: { accountId: string; limit: number; cursor?: string },
): Promise<{ codes: QrCode[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('qr_codes')
    .select(codeColumns)
    .where('account_id', '=', input.accountId)
    .where('deleted_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(input.limit + 1); // one extra row tells whether another page exists
  // Ids are time-ordered and unique, so "older than the cursor" neither skips nor repeats codes when codes
  // are created (they sort before the cursor) or deleted (the cursor need not exist any more) between pages.
  if (input.cursor !== undefined) query = query.where('id', '<', input.cursor);
  const rows = await query.execute();
  const page = rows.slice(0, input.limit).map(toQrCode);
  return { codes: page, nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

export async function getQrCode(db: Db, input: { accountId: string; id: string }): Promise<QrCode> {
  assertCodeId(input.id);
  const row = await db
    .selectFrom('qr_codes')
    .select(codeColumns)
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw errors.notFound();
  return toQrCode(row);
}

export async function updateQrCode(
  db: Db,
  input: { accountId: string; id: string; changes: { name?: string; destinationUrl?: string; active?: boolean } },
): Promise<QrCode> {
  const { name, destinationUrl, active } = input.changes;
  assertCodeId(input.id);
  const row = await db
    .updateTable('qr_codes')
    .set({
      ...(name !== undefined && { name }),
      ...(destinationUrl !== undefined && { destination_url: destinationUrl }),
      ...(active !== undefined && { active }),
      updated_at: new Date(),
    })
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .where('deleted_at', 'is', null)
    .returning(codeColumns)
    .executeTakeFirst();
  if (!row) throw errors.notFound();
  return toQrCode(row);
}

export async function deleteQrCode(db: Db, input: { accountId: string; id: string }): Promise<void> {
  assertCodeId(input.id);
  await inTransaction(db, async (trx) => {
    const deleted = await trx
      .updateTable('qr_codes')
      .set({ deleted_at: new Date() })
      .where('id', '=', input.id)
      .where('account_id', '=', input.accountId)
      .where('deleted_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!deleted) throw errors.notFound();
    await trx.updateTable('accounts').set({ code_count: sql`code_count - 1` }).where('id', '=', input.accountId).execute();
  });
}

export async function listRecentScans(
  db: Db,
  input: { accountId: string; id: string },
): Promise<{ total: number; scans: Scan[] }> {
  assertCodeId(input.id);
  const code = await db
    .selectFrom('qr_codes')
    .select('scan_count')
    .where('id', '=', input.id)
    .where('account_id', '=', input.accountId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!code) throw errors.notFound();
  const scans = await db
    .selectFrom('scans')
    .select(['created_at', 'device', 'os', 'browser'])
    .where('qr_code_id', '=', input.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(RECENT_SCANS_LIMIT)
    .execute();
  return {
    total: code.scan_count,
    scans: scans.map((s) => ({ createdAt: s.created_at, device: s.device, os: s.os, browser: s.browser })),
  };
}

type CodeRow = Pick<Selectable<QrCodesTable>, (typeof codeColumns)[number]>;

function toQrCode(row: CodeRow): QrCode {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    slug: row.slug,
    destinationUrl: row.destination_url,
    scanCount: row.scan_count,
    active: row.active,
    createdAt: row.created_at,
  };
}

/** Idempotent replays are stored as JSON; dates come back as strings. */
function fromStoredCode(stored: unknown): QrCode {
  const code = stored as Omit<QrCode, 'createdAt'> & { createdAt: string };
  return { ...code, createdAt: new Date(code.createdAt) };
}
