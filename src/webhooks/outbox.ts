import { type RawBuilder, sql } from 'kysely';
import { executePrepared } from '../db/database.js';
import { WEBHOOKS_DUE_CHANNEL } from '../db/channels.js';
import type { Database, Db } from '../db/schema/index.js';
import type { RetryPolicy } from './retry-schedule.js';
import type { OutboxBacklog } from '../metrics/outbox-metrics.js';

/** A due delivery this worker now holds, with what it needs to sign and send it. */
export interface ClaimedDelivery {
  id: string;
  accountId: string;
  event: string;
  body: string;
  /**
   * This attempt's number. Attempts are counted when claimed, so one whose outcome never gets recorded (the worker
   * died, the database went away) still counts, and a delivery cannot be retried forever without progress.
   */
  attemptNumber: number;
  /**
   * Random, made by this claim (a uuid): what an outcome is recorded under. Never the same for two claims, even
   * when a PostgreSQL crash forgot a claim and the same worker claims the row again with the same attempt number.
   */
  claimToken: string;
  finalAttempt: boolean;
  url: string;
  secretEncrypted: string;
  /** Only while a rotation overlap is running. */
  previousSecretEncrypted: string | null;
}

/**
 * The columns of a `ClaimedDelivery`, for any claim statement that names the delivery row `d` and its endpoint `e`.
 * The previous secret is returned only while its rotation overlap runs.
 */
export const CLAIMED_DELIVERY = sql`
  d.id, d.account_id as "accountId", d.event, d.body, d.attempt_count as "attemptNumber", d.claim_token::text as "claimToken",
  d.final_attempt as "finalAttempt",
  e.url, e.secret_encrypted as "secretEncrypted",
  case when e.previous_secret_expires_at > now() then e.previous_secret_encrypted end as "previousSecretEncrypted"`;

/** How many attempts a retry policy allows: the first, then one per scheduled delay. */
export function allowedAttempts(policy: RetryPolicy): number {
  return policy.delaysMs.length + 1;
}

/**
 * A due row (alias `w`) whose last claim lapsed without a recorded outcome (`claimed_by` still set) and which has
 * no attempt left: it is failed instead of claimed, so an attempt whose record keeps failing ends with the schedule.
 */
export function lapsedWithoutAttemptsLeft(maxAttempts: number) {
  return sql`(w.claimed_by is not null and (w.final_attempt or w.attempt_count >= ${maxAttempts}))`;
}

/** What a delivery failed for when its last attempt's outcome was never recorded. */
export const UNRECORDED_REASON = 'the last attempt was made but its outcome was never recorded (the worker stopped or lost the database)';

export interface ClaimRequest {
  workerId: string;
  /** How long the claim holds; a worker that dies leaves its rows due again after this. */
  leaseMs: number;
  /** Most rows to claim in total (free delivery slots of this worker). */
  limit: number;
  /** Most rows per account when the account has nothing in flight here. */
  perAccount: number;
  /** Accounts with deliveries in flight here, and how many more each may take (0 = none). */
  busy: ReadonlyMap<string, number>;
  /** From the retry policy (`allowedAttempts`). */
  maxAttempts: number;
}

/**
 * Claims due deliveries of enabled endpoints. Accounts are taken oldest-due first, at most `perAccount` rows each
 * (fewer for accounts already busy here, none for those at their limit),
 * so a slow receiver with a deep backlog holds a few slots, never all of them. `FOR UPDATE SKIP LOCKED` lets any
 * number of workers claim at once without waiting on or taking each other's rows; the claim commits at once
 * (moving `next_attempt_at` to the end of the lease), so no lock is held while the HTTP request runs. Claiming
 * counts the attempt and gives it a new random token. A row whose previous claim lapsed with no attempt left is
 * failed instead (`abandoned`).
 */
export async function claimDueDeliveries(db: Db, request: ClaimRequest): Promise<{ claimed: ClaimedDelivery[]; abandoned: string[] }> {
  const full = [...request.busy].filter(([, slots]) => slots <= 0).map(([accountId]) => accountId);
  const partial = [...request.busy].filter(([, slots]) => slots > 0);
  const rows = await runPrepared(db, 'webhook-claim', sql<ClaimedDelivery & { abandoned: boolean }>`
    with recursive pending_accounts(account_id) as (
      -- Every account with pending rows, one index probe each (a loose index scan): the cost follows the
      -- number of accounts, not the size of a backlog.
      (select account_id from webhook_deliveries where status = 'pending' order by account_id limit 1)
      union all
      select (select d.account_id from webhook_deliveries d
              where d.status = 'pending' and d.account_id > p.account_id order by d.account_id limit 1)
      from pending_accounts p where p.account_id is not null
    ),
    due_accounts as (
      select p.account_id, oldest.next_attempt_at
      from pending_accounts p
      join webhook_endpoints e on e.account_id = p.account_id and e.disabled_at is null
      cross join lateral (
        select next_attempt_at from webhook_deliveries d
        where d.account_id = p.account_id and d.status = 'pending' order by d.next_attempt_at limit 1
      ) oldest
      where oldest.next_attempt_at <= now() and p.account_id <> all(${full}::text[])
      order by oldest.next_attempt_at
      limit ${request.limit}
    ),
    claimable as (
      select w.id, w.abandoned from due_accounts a
      cross join lateral (
        select id, ${lapsedWithoutAttemptsLeft(request.maxAttempts)} as abandoned from webhook_deliveries w
        where w.account_id = a.account_id and w.status = 'pending' and w.next_attempt_at <= now()
        order by w.next_attempt_at
        limit coalesce(
          (select p.slots from unnest(${partial.map(([id]) => id)}::text[], ${partial.map(([, slots]) => slots)}::int[])
             as p(account_id, slots) where p.account_id = a.account_id),
          ${request.perAccount})
        for update skip locked
      ) w
      limit ${request.limit}
    )
    update webhook_deliveries d set
      claimed_by = case when claimable.abandoned then null else ${request.workerId} end,
      claim_token = case when claimable.abandoned then null else gen_random_uuid() end,
      attempt_count = case when claimable.abandoned then d.attempt_count else d.attempt_count + 1 end,
      next_attempt_at = now() + ${request.leaseMs} * interval '1 millisecond',
      status = case when claimable.abandoned then 'failed' else d.status end,
      completed_at = case when claimable.abandoned then now() end,
      last_error = case when claimable.abandoned then ${UNRECORDED_REASON} else d.last_error end
    from claimable, webhook_endpoints e
    where d.id = claimable.id and e.account_id = d.account_id
    returning ${CLAIMED_DELIVERY}, claimable.abandoned
  `);
  return {
    claimed: rows.filter((row) => !row.abandoned).map(({ abandoned: _, ...delivery }) => delivery),
    abandoned: rows.filter((row) => row.abandoned).map((row) => row.id),
  };
}

/**
 * Runs a statement whose text never changes (every value a parameter) as a named prepared statement: PostgreSQL
 * plans the worker's claim and record statements, CTEs of several joins, once per connection instead of on every
 * call, which was a good part of their cost at a few thousand deliveries a second.
 */
export async function runPrepared<Row>(db: Db, name: string, query: RawBuilder<Row>): Promise<Row[]> {
  const compiled = query.compile(db);
  return executePrepared<Row>(db as unknown as Database, { name, text: compiled.sql }, [...compiled.parameters]);
}

/**
 * Gives claims back whose attempt was never made or was cut short (shutdown): due at once, for another worker or
 * the next start, and uncounted again. Only claims still held (same worker, same claim token) are touched.
 */
export async function releaseClaims(db: Db, workerId: string, claims: ReadonlyArray<{ id: string; claimToken: string }>): Promise<number> {
  const result = await sql`
    with released as (
      update webhook_deliveries d set claimed_by = null, claim_token = null, next_attempt_at = now(), attempt_count = d.attempt_count - 1
      from unnest(${claims.map((c) => c.id)}::text[], ${claims.map((c) => c.claimToken)}::uuid[]) as c(id, claim_token)
      where d.id = c.id and d.claimed_by = ${workerId} and d.claim_token = c.claim_token and d.status = 'pending'
      returning 1
    )
    select (select count(*) from released)::int as released, pg_notify(${WEBHOOKS_DUE_CHANNEL}, '')
  `.execute(db);
  return (result.rows[0] as { released: number } | undefined)?.released ?? 0;
}

/**
 * Deliveries due now (pending, not held by a claim, endpoint enabled) and how long the oldest has waited: one
 * statement over the partial index of pending rows, so its cost follows the backlog, never the history. Rows of
 * disabled endpoints wait for their account, not for the workers, so they are left out (an alert on the age must
 * not fire for one customer's broken receiver).
 */
export async function readOutboxBacklog(db: Db): Promise<OutboxBacklog> {
  const result = await sql<OutboxBacklog>`
    select count(*)::int as due,
      coalesce(extract(epoch from now() - min(d.next_attempt_at)), 0)::float8 as "oldestDueSeconds"
    from webhook_deliveries d
    join webhook_endpoints e on e.account_id = d.account_id and e.disabled_at is null
    where d.status = 'pending' and d.next_attempt_at <= now()
  `.execute(db);
  return result.rows[0] ?? { due: 0, oldestDueSeconds: 0 };
}
