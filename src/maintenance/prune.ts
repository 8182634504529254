import { sql } from 'kysely';
import { sweepErasedCodes } from '../accounts/account-erasure.js';
import { IDEMPOTENCY_KEY_LIFETIME } from '../codes/idempotency.js';
import type { RetentionConfig } from '../config.js';
import type { Database } from '../db/schema/index.js';
import { pruneUnreferencedFiles, UNREFERENCED_UPLOAD_HOURS } from '../files/prune-unreferenced.js';
import { IMPORT_PRUNE_BATCH, pruneUnconfirmedImports } from '../imports/prune-imports.js';
import { pruneInvitations } from '../people/invitations.js';
import { pruneLoginFailures } from '../people/login-limit.js';
import { prunePasswordResets } from '../people/password-resets.js';
import { pruneSignupRequests } from '../people/signup-requests.js';
import { SCAN_BATCH_LIFETIME_DAYS } from '../redirect/scan-batch.js';
import { createComingMonths, dropExpiredMonths, pruneDefaultPartition } from './scan-partitions.js';

/** How many rows one statement deletes: small enough that its locks and WAL are brief, large enough to keep up. */
export const PRUNE_BATCH_SIZE = 1_000;

/** The write limit's window is 60 s; take_write_slot deletes an account's old events only when it writes again. */
const WRITE_RATE_EVENT_LIFETIME = '1 hour';
const SCAN_BATCH_LIFETIME = `${SCAN_BATCH_LIFETIME_DAYS} days`;

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
  /** Sign-up requests past their expiry (unconfirmed, their link dead). */
  signupRequests: number;
  unconfirmedImports: number;
  unreferencedFiles: number;
  /** Scans of erased accounts' codes written after the erasure (a batch in flight, a replayed journal). */
  erasedCodeScans: number;
  /** Months of scan_groups made ahead (scan-partitions.ts), and months dropped whole past SCAN_RETENTION_DAYS. */
  scanPartitionsCreated: number;
  scanPartitionsDropped: number;
  /** Partitions to create or drop whose lock did not come within a second: the next run tries again. */
  scanPartitionsBusy: number;
}

/** What pruning needs to know besides retention: sessions idle this long are over (config.dashboard.sessionIdleMs). */
export type PruneSettings = Pick<RetentionConfig, 'webhookDeliveryDays' | 'scanDays' | 'unreferencedUploadHours'> & { sessionIdleMs?: number };

/**
 * Deletes what retention says has expired, in batches of `batchSize` rows per statement (each its own
 * transaction), unless another process is pruning already (a session advisory lock): then returns undefined.
 * Pending webhook deliveries are never deleted; scans only when `scanDays` is set, and their codes' lifetime
 * counters stay as they are. Sessions go once past their absolute expiry, or idle past `sessionIdleMs` when given;
 * invitations and reset links 30 days after they ended; failed sign-ins once the login limit's window has passed;
 * import dry runs nobody confirmed within a day, with their rows; uploads nothing refers to, once
 * `unreferencedUploadHours` old (src/files/prune-unreferenced.ts). Every run also creates the coming months'
 * scan partitions (scan-partitions.ts).
 *
 * The advisory lock is a session's, so it is taken and released on one connection of `lockDb`, a handle whose
 * sessions are real (the direct connection when DATABASE_URL points at a transaction pooler, where a session lock
 * would be taken on whichever server connection the pooler lent and could never be released); everything else
 * runs through `db` and holds no session state.
 */
export async function pruneExpired(
  db: Database,
  retention: PruneSettings,
  batchSize = PRUNE_BATCH_SIZE,
  lockDb: Database = db,
): Promise<PruneCounts | undefined> {
  return lockDb.connection().execute(async (lockSession) => {
    const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(hashtextextended('qroute:prune', 0)) as locked`.execute(lockSession);
    if (!rows[0]?.locked) return undefined;
    try {
      return await pruneHoldingLock(db, retention, batchSize);
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('qroute:prune', 0))`.execute(lockSession);
    }
  });
}

async function pruneHoldingLock(db: Database, retention: PruneSettings, batchSize: number): Promise<PruneCounts> {
  const counts: PruneCounts = {
    webhookDeliveries: 0, webhookAttempts: 0, idempotencyKeys: 0, writeRateEvents: 0, scanBatches: 0, scans: 0,
    sessions: 0, invitations: 0, passwordResets: 0, loginFailures: 0, signupRequests: 0, unconfirmedImports: 0, unreferencedFiles: 0,
    erasedCodeScans: 0, scanPartitionsCreated: 0, scanPartitionsDropped: 0, scanPartitionsBusy: 0,
  };
  // First, and apart from the rest: a month without its partition sends its scans to the DEFAULT partition, and a
  // failure here (reported at the end) must not stop the other pruning either.
  let upkeepFailure: { error: unknown } | undefined;
  try {
    const coming = await createComingMonths(db);
    counts.scanPartitionsCreated = coming.created.length;
    counts.scanPartitionsBusy = coming.busy.length;
  } catch (error) {
    upkeepFailure = { error };
  }
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
      select (select count(*) from deliveries)::int as deliveries, (select count(*) from attempts)::int as attempts`.execute(db);
    counts.webhookDeliveries += batch!.deliveries;
    counts.webhookAttempts += batch!.attempts;
    return batch!.deliveries;
  });
  counts.idempotencyKeys = await inBatches(batchSize, () => deleted(db, sql`
    delete from idempotency_keys where (account_id, key) in (
      select account_id, key from idempotency_keys where created_at < now() - ${IDEMPOTENCY_KEY_LIFETIME}::interval limit ${batchSize})`));
  counts.writeRateEvents = await inBatches(batchSize, () => deleted(db, sql`
    delete from write_rate_events where ctid = any(array(
      select ctid from write_rate_events where at < now() - ${WRITE_RATE_EVENT_LIFETIME}::interval limit ${batchSize}))`));
  counts.scanBatches = await inBatches(batchSize, () => deleted(db, sql`
    delete from scan_batches where id in (
      select id from scan_batches where committed_at < now() - ${SCAN_BATCH_LIFETIME}::interval limit ${batchSize})`));
  if (retention.scanDays !== undefined) {
    const expired = await dropExpiredMonths(db, retention.scanDays);
    counts.scanPartitionsDropped = expired.dropped.length;
    counts.scanPartitionsBusy += expired.busy.length;
    counts.scans = expired.scans + (await pruneDefaultPartition(db, retention.scanDays, batchSize));
  }
  // The same expiry findSession applies when it reads a session (src/people/sessions.ts).
  const idleSeconds = retention.sessionIdleMs === undefined ? null : retention.sessionIdleMs / 1000;
  counts.sessions = await inBatches(batchSize, () => deleted(db, sql`
    delete from sessions where token_hash in (
      select token_hash from sessions
      where expires_at <= now() or last_seen_at <= now() - make_interval(secs => ${idleSeconds}::double precision)
      limit ${batchSize})`));
  counts.invitations = await inBatches(batchSize, () => pruneInvitations(db, batchSize));
  counts.passwordResets = await inBatches(batchSize, () => prunePasswordResets(db, batchSize));
  counts.loginFailures = await inBatches(batchSize, () => pruneLoginFailures(db, batchSize));
  counts.signupRequests = await inBatches(batchSize, () => pruneSignupRequests(db, batchSize));
  counts.unconfirmedImports = await inBatches(IMPORT_PRUNE_BATCH, () => pruneUnconfirmedImports(db));
  counts.unreferencedFiles = await pruneUnreferencedFiles(db, retention.unreferencedUploadHours ?? UNREFERENCED_UPLOAD_HOURS, batchSize);
  // Kept a day longer than batch ids, so a journal replayed on their last day is still swept.
  counts.erasedCodeScans = await sweepErasedCodes(db, SCAN_BATCH_LIFETIME_DAYS + 1);
  if (upkeepFailure) throw upkeepFailure.error;
  return counts;
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
