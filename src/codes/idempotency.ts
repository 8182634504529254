import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/schema/index.js';

/** How long an Idempotency-Key replays its first answer; the pruning job deletes keys older than this. */
export const IDEMPOTENCY_KEY_LIFETIME = '24 hours';

export type IdempotencyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'key_reused' };

/** Hash of the request body that ignores key order, so `{"a":1,"b":2}` and `{"b":2,"a":1}` are one request. */
export function hashRequest(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Claims `key` for this request inside the caller's transaction. A concurrent request with the same key waits
 * on the row lock until this transaction ends: then it sees the stored answer (commit) or claims the key itself
 * (rollback). Only successful answers are stored, so a failed request can be retried with the same key.
 */
export async function claimIdempotencyKey(
  trx: Db,
  input: { accountId: string; key: string; requestHash: string },
): Promise<IdempotencyClaim> {
  const claimed = await trx
    .insertInto('idempotency_keys')
    .values({
      account_id: input.accountId,
      key: input.key,
      request_hash: input.requestHash,
      response_status: null,
      response_body: null,
      created_at: sql<Date>`now()`,
    })
    .onConflict((oc) =>
      oc.columns(['account_id', 'key']).doUpdateSet({
        request_hash: input.requestHash,
        response_status: null,
        response_body: null,
        created_at: sql<Date>`now()`,
      }).where('idempotency_keys.created_at', '<', sql<Date>`now() - ${IDEMPOTENCY_KEY_LIFETIME}::interval`),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { kind: 'claimed' };

  const existing = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response_status', 'response_body'])
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .executeTakeFirstOrThrow();
  if (existing.request_hash !== input.requestHash) return { kind: 'key_reused' };
  return { kind: 'replay', status: existing.response_status!, body: existing.response_body };
}

export async function storeIdempotentResponse(
  trx: Db,
  input: { accountId: string; key: string; status: number; body: unknown },
): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response_status: input.status, response_body: JSON.stringify(input.body) })
    .where('account_id', '=', input.accountId)
    .where('key', '=', input.key)
    .execute();
}
