import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { liveCodesOf } from '../db/live-codes.js';
import type { DatabaseSchema, Db } from '../db/schema/index.js';
import { codeColumns, isCodeId, type QrCode, toQrCode } from './qr-code-row.js';

export type CodeState = 'active' | 'paused' | 'all';

export interface CodeFilter {
  accountId: string;
  /** A part of the name, any case; blank means no search. */
  query?: string;
  state?: CodeState;
}

/** A malformed cursor (not a code id); the dashboard answers with the first page or a 400. */
export class InvalidCursorError extends Error {
  constructor() {
    super('The cursor is not a code id.');
    this.name = 'InvalidCursorError';
  }
}

/**
 * The code list of the dashboard and of the API (listQrCodes): newest first, paged by id like the API's list (the id of the last code on a page
 * is the cursor for the next), searched by name and filtered by state. Deleted codes never appear.
 * The migration 20261123T1600-code-search indexes both, so a page stays fast at a million codes.
 */
export async function searchQrCodes(
  db: Db,
  input: CodeFilter & { limit: number; cursor?: string },
): Promise<{ codes: QrCode[]; nextCursor: string | null }> {
  if (input.cursor !== undefined && !isCodeId(input.cursor)) throw new InvalidCursorError();
  let query = filtered(db, input)
    .select(codeColumns)
    .orderBy('id', 'desc')
    .limit(input.limit + 1); // one extra row tells whether another page exists
  // Ids are time-ordered and unique, so "older than the cursor" neither skips nor repeats codes when codes
  // are created (they sort before the cursor) or deleted (the cursor need not exist any more) between pages.
  if (input.cursor !== undefined) query = query.where('id', '<', input.cursor);
  const rows = await query.execute();
  const page = rows.slice(0, input.limit).map(toQrCode);
  return { codes: page, nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

/**
 * How many codes match, for "N codes" above the list. Counting stops after `cap` (default 10,000): counting a
 * million matches reads a million index entries, and "10,000+" tells a person as much. Without a search or a
 * state filter the account's own counter answers at once, exactly.
 */
export async function countQrCodes(
  db: Db,
  input: CodeFilter & { cap?: number },
): Promise<{ count: number; capped: boolean }> {
  const cap = input.cap ?? COUNT_CAP;
  if (searchTerm(input.query) === undefined && (input.state ?? 'all') === 'all') {
    const account = await db.selectFrom('accounts').select('code_count').where('id', '=', input.accountId).executeTakeFirst();
    return { count: account?.code_count ?? 0, capped: false };
  }
  const matches = filtered(db, input).select('id').limit(cap + 1);
  const row = await db
    .selectFrom(matches.as('m'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  const count = Number(row.n);
  return count > cap ? { count: cap, capped: true } : { count, capped: false };
}

const COUNT_CAP = 10_000;

type CodesQuery = SelectQueryBuilder<DatabaseSchema, 'qr_codes', object>;

/** The account's live codes that match the filter; both the page and the count start from it. */
function filtered(db: Db, filter: CodeFilter): CodesQuery {
  let query: CodesQuery = liveCodesOf(db, filter.accountId);
  const state = filter.state ?? 'all';
  if (state !== 'all') query = query.where('active', '=', state === 'active');
  const term = searchTerm(filter.query);
  // PostgreSQL text cannot hold NUL, so no name contains it (and sending it would be an error, not "no match").
  if (term?.includes('\u0000')) query = query.where(sql<boolean>`false`);
  else if (term !== undefined) query = query.where(nameContains(term));
  return query;
}

function searchTerm(query: string | undefined): string | undefined {
  const term = query?.trim();
  return term ? term : undefined;
}

/** `name ilike '%term%'` with the term's own `%`, `_` and `\` taken literally; the trigram index serves it. */
function nameContains(term: string) {
  const pattern = `%${likeLiteral(term)}%`;
  return (eb: ExpressionBuilder<DatabaseSchema, 'qr_codes'>) => eb('name', 'ilike', pattern);
}

/** Text as a LIKE pattern that matches only itself: its `%`, `_` and `\` escaped (backslash is the default escape). */
export function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
