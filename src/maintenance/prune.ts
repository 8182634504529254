import { sql } from 'kysely';
import { IDEMPOTENCY_KEY_LIFETIME } from '../codes/idempotency.js';
import type { RetentionConfig } from '../config.js';
import type { Database } from '../db/schema/index.js';
import { IMPORT_PRUNE_BATCH, pruneUnconfirmedImports } from '../imports/prune-imports.js';
import { pruneInvitations } from '../people/invitations.js';
import { pruneLoginFailures } from '../people/login-limit.js';
import { prunePasswordResets } from '../people/password-resets.js';

/** How many rows one statement deletes: small enough that its locks and WAL are brief, large enough to keep up. */
export const PRUNE_BATCH_SIZE = 1_000;

/** The write limit's window is 60 s; take_write_slot deletes an account's old events only when it writes again. */
const WRITE_RATE_EVENT_LIFETIME = '1 hour';
/** Batch ids only need to outlive a batch's retries (seconds to minutes, or an outage): a week is plenty. */
const SCAN_BATCH_LIFETIME = '7 days';

export interface PruneCounts {
  webhookDeliveries: number;
  webhookAttempts: number;
  idempotencyKeys: number;
  writeRateEvents: number;
  scanBatches: number;
  scans: number;
  sessions: number;
  invitations: number;
  passwordResets: number;
  loginFailures: number;
  unconfirmedImports: number;
}

/** What pruning needs to know besides retention: sessions idle this long are over (config.dashboard.sessionIdleMs). */
export type PruneSettings = Pick<RetentionConfig, 'webhookDeliveryDays' | 'scanDays'> & { sessionIdleMs?: number };

/**
 * Deletes what retention says has expired, in batches of `batchSize` rows per statement (each its own
 * transaction), unless another process is pruning already (a session advisory lock): then returns undefined.
 * Pending webhook deliveries are never deleted; scans only when `scanDays` is set, and their codes' lifetime
 * counters stay as they are. Sessions go once past their absolute expiry, or idle past `sessionIdleMs` when given;
 * invitations and reset links 30 days after they ended; failed sign-ins once the login limit's window has passed;
 * import dry runs nobody confirmed within a day, with their rows.
 */
export async function pruneExpired(
  db: Database,
  retention: PruneSettings,
  batchSize = PRUNE_BATCH_SIZE,
): Promise<PruneCounts | undefined> {
  return db.connection().execute(async (session) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended('qroute:prune', 0)) as locked`.execute(session);
    if (!rows[0]?.locked) return undefined;
    try {
      const counts: PruneCounts = {
        webhookDeliveries: 0, webhookAttempts: 0, idempotencyKeys: 0, writeRateEvents: 0, scanBatches: 0, scans: 0,
        sessions: 0, invitations: 0, passwordResets: 0, loginFailures: 0, unconfirmedImports: 0,
      };
      await inBatches(batchSize, async () => {
        // Locked before deletion, skipping rows a redelivery holds: a delivery made pending again is re-checked
        // against the condition once its lock is ours, and stays.
        const { rows: [batch] } = await sql<{ deliveries: number; attempts: number }>`
          with doomed as (
            select id from webhook_deliveries
            where status <> 'pending' and completed_at < now() - make_interval(days => ${retention.webhookDeliveryDays})
            limit ${batchSize} for update skip locked
          ), attempts as (
            delete from webhook_attempts where delivery_id in (select id from doomed) returning 1
          ), deliveries as (
            delete from webhook_deliveries where id in (select id from doomed) returning 1
          )
          select (select count(*) from deliveries)::int as deliveries, (select count(*) from attempts)::int as attempts`.execute(session);
        counts.webhookDeliveries += batch!.deliveries;
        counts.webhookAttempts += batch!.attempts;
        return batch!.deliveries;
      });
      counts.idempotencyKeys = await inBatches(batchSize, () => deleted(session, sql`
        delete from idempotency_keys where (account_id, key) in (
          select account_id, key from idempotency_keys where created_at < now() - ${IDEMPOTENCY_KEY_LIFETIME}::interval limit ${batchSize})`));
      counts.writeRateEvents = await inBatches(batchSize, () => deleted(session, sql`
        delete from write_rate_events where ctid = any(array(
          select ctid from write_rate_events where at < now() - ${WRITE_RATE_EVENT_LIFETIME}::interval limit ${batchSize}))`));
      counts.scanBatches = await inBatches(batchSize, () => deleted(session, sql`
        delete from scan_batches where id in (
          select id from scan_batches where committed_at < now() - ${SCAN_BATCH_LIFETIME}::interval limit ${batchSize})`));
      if (retention.scanDays !== undefined) {
        // Oldest ids first, through the primary key: an index on first_at would cost every batch's insert. A
        // batch holding a newer group (ids and times disagree slightly) ends this run; the next one goes on. A
        // group's times lie in one second, so a group is removed whole, with all of its scans past the cutoff.
        await inBatches(batchSize, async () => {
          const { rows: [batch] } = await sql<{ groups: number; scans: number }>`
          with doomed as (
            delete from scan_groups where id in (
              select id from (select id, first_at from scan_groups order by id limit ${batchSize}) oldest
              where first_at < date_trunc('second', now() - make_interval(days => ${retention.scanDays}))
                -- Only scans the analytics rollup already counts: its history must outlive the raw rows.
                and id <= (select folded_through_id from scan_rollup_state))
            returning coalesce(cardinality(times), 1) as scans
          )
          select count(*)::int as groups, coalesce(sum(scans), 0)::bigint as scans from doomed`.execute(session);
          counts.scans += batch!.scans;
          return batch!.groups;
        });
      }
      // The same expiry findSession applies when it reads a session (src/people/sessions.ts).
      const idleSeconds = retention.sessionIdleMs === undefined ? null : retention.sessionIdleMs / 1000;
      counts.sessions = await inBatches(batchSize, () => deleted(session, sql`
        delete from sessions where token_hash in (
          select token_hash from sessions
          where expires_at <= now() or last_seen_at <= now() - make_interval(secs => ${idleSeconds}::double precision)
          limit ${batchSize})`));
      counts.invitations = await inBatches(batchSize, () => pruneInvitations(session, batchSize));
      counts.passwordResets = await inBatches(batchSize, () => prunePasswordResets(session, batchSize));
      counts.loginFailures = await inBatches(batchSize, () => pruneLoginFailures(session, batchSize));
      counts.unconfirmedImports = await inBatches(IMPORT_PRUNE_BATCH, () => pruneUnconfirmedImports(session));
      return counts;
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('qroute:prune', 0))`.execute(session);
    }
  });
}

/** Runs `batch` until one deletes fewer than a full batch; returns the total. */
async function inBatches(batchSize: number, batch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const count = await batch();
    total += count;
    if (count < batchSize) return total;
  }
}

async function deleted(session: Database, statement: ReturnType<typeof sql>): Promise<number> {
  const result = await statement.execute(session);
  return Number(result.numAffectedRows ?? 0);
}
