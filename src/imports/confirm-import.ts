import { sql } from 'kysely';
import { codeLimitOf } from '../accounts/plans.js';
import type { Db } from '../db/schema/index.js';
import { getImport } from './import-rows.js';

export interface PlanRoom {
  /** Codes the account may still create. */
  remaining: number;
  limit: number;
}

export async function planRoom(db: Db, accountId: string): Promise<PlanRoom> {
  const account = await db.selectFrom('accounts').select(['plan', 'code_limit', 'code_count']).where('id', '=', accountId).executeTakeFirstOrThrow();
  const limit = codeLimitOf(account);
  return { limit, remaining: Math.max(0, limit - account.code_count) };
}

export type ConfirmResult = { ok: true } | { ok: false; message: string };

/**
 * Hands a checked import to the background job. Refused when the rows to create no longer fit the plan (codes
 * made since the dry run count too), so nobody starts an import that would stop half-way at the limit; the job
 * still checks the limit per code, under the account's lock, for codes created while it runs.
 */
export async function confirmImport(db: Db, accountId: string, importId: string): Promise<ConfirmResult> {
  const summary = await getImport(db, accountId, importId);
  if (summary.status !== 'checked') return { ok: true }; // a second click (or another tab) changes nothing
  const room = await planRoom(db, accountId);
  if (summary.counts.pending > room.remaining) {
    return { ok: false, message: tooManyMessage(summary.counts.pending, room) };
  }
  if (summary.counts.pending === 0) {
    // Nothing to create (every row invalid or already there): done at once, no job needed.
    await db.updateTable('imports').set({ status: 'done', confirmed_at: sql`now()`, finished_at: sql`now()` }).where('id', '=', importId).where('status', '=', 'checked').execute();
    return { ok: true };
  }
  await db.updateTable('imports').set({ status: 'queued', confirmed_at: sql`now()` }).where('id', '=', importId).where('status', '=', 'checked').execute();
  return { ok: true };
}

export function tooManyMessage(toCreate: number, room: PlanRoom): string {
  return `This file would create ${toCreate.toLocaleString('en')} codes, but the plan (${room.limit.toLocaleString('en')} codes) ` +
    `leaves room for ${room.remaining.toLocaleString('en')}. Delete codes you no longer need, move to a larger plan, or import fewer rows.`;
}

/** A checked import nobody wants: its rows go, the entry stays in the list as cancelled. */
export async function cancelImport(db: Db, accountId: string, importId: string): Promise<void> {
  await getImport(db, accountId, importId);
  await db.transaction().execute(async (trx) => {
    const updated = await trx.updateTable('imports').set({ status: 'cancelled', finished_at: sql`now()` }).where('id', '=', importId).where('status', '=', 'checked').returning('id').executeTakeFirst();
    if (updated) await trx.deleteFrom('import_rows').where('import_id', '=', importId).execute();
  });
}
