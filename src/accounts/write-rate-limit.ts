import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';

/** SPEC: "60 writes per minute per account". */
export const WRITE_LIMIT = 60;
export const WRITE_WINDOW_MS = 60_000;

export interface WriteSlot {
  allowed: boolean;
  /** Writes still accepted in the current window after this one. */
  remaining: number;
  /** Milliseconds until the oldest write in the window leaves it (one more write becomes possible). */
  resetMs: number;
}

/**
 * Takes one write from the account's sliding window, or refuses it. Exact across instances: the
 * `take_write_slot` function (initial migration) serialises an account's writes with an advisory lock and
 * uses the database clock, so no two app servers can both accept the 61st write.
 */
export async function takeWriteSlot(db: Db, accountId: string): Promise<WriteSlot> {
  const { rows } = await sql<{ allowed: boolean; remaining: number; reset_ms: number }>`
    select allowed, remaining, reset_ms from take_write_slot(${accountId}, ${WRITE_LIMIT}, ${WRITE_WINDOW_MS})
  `.execute(db);
  const row = rows[0]!;
  return { allowed: row.allowed, remaining: row.remaining, resetMs: Math.max(0, row.reset_ms) };
}
