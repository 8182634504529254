import type { Database } from '../db/schema/index.js';
import { liveCodesOf } from '../db/live-codes.js';
import { likeLiteral } from './code-search.js';

export interface Namesake {
  id: string;
  slug: string;
  createdAt: Date;
}

/**
 * The account's other live codes with the same name, letter case aside, oldest first. Names need not be unique
 * (two shops may each have a "Menu"), but a person who gives a second code the same name should be told, and
 * shown what tells the codes apart (their short URLs and when they were made).
 */
export async function namesakesOf(db: Database, code: { accountId: string; id: string; name: string }, limit = 5): Promise<{ shown: Namesake[]; total: number }> {
  const rows = await liveCodesOf(db, code.accountId)
    .where('name', 'ilike', likeLiteral(code.name))
    .where('id', '!=', code.id)
    .select(['id', 'slug', 'created_at', (eb) => eb.fn.countAll<string>().over().as('total')])
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return { shown: rows.map((row) => ({ id: row.id, slug: row.slug, createdAt: row.created_at })), total: Number(rows[0]?.total ?? 0) };
}
