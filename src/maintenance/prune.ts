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
 * `unreferencedUploadHours` old (src/files/prune-unreferenced.ts).
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
        sessions: 0, invitations: 0, passwordResets: 0, loginFailures: 0, signupRequests: 0, unconfirmedImports: 0, unreferencedFiles: 0,
        erasedCodeScans: 0,
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
      if (retention.scanDays !== undefined) counts.scans = await pruneScans(session, retention.scanDays, batchSize);
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
      counts.signupRequests = await inBatches(batchSize, () => pruneSignupRequests(session, batchSize));
      counts.unconfirmedImports = await inBatches(IMPORT_PRUNE_BATCH, () => pruneUnconfirmedImports(session));
      counts.unreferencedFiles = await pruneUnreferencedFiles(session, retention.unreferencedUploadHours ?? UNREFERENCED_UPLOAD_HOURS, batchSize);
      // Kept a day longer than batch ids, so a journal replayed on their last day is still swept.
      counts.erasedCodeScans = await sweepErasedCodes(session, SCAN_BATCH_LIFETIME_DAYS + 1);
      return counts;
    } finally {
      await sql`select pg_advisory_unlock(hashtextextended('qroute:prune', 0))`.execute(session);
    }
  });
}

/**
 * Scans past `scanDays`, selected by time: ids say nothing about age (history imported later, a clock set wrong),
 * so a walk from the lowest ids never reached old scans stored after newer ones. Code by code (`batchSize` codes
 * per statement, in id order), each code's groups older than the cutoff through scan_groups_code_newest
 * (qr_code_id, first_at), so a run costs an index probe per code plus the rows it deletes, and scan writes carry
 * no extra index. A group's times lie in one second, so a group is removed whole, with all of its scans past the
 * cutoff. Only scans the analytics rollup already counts go: its history must outlive the raw rows.
 */
async function pruneScans(session: Database, scanDays: number, batchSize: number): Promise<number> {
  let scans = 0;
  let afterCode = '';
  for (;;) {
    const { rows: [batch] } = await sql<{ groups: number; scans: number; lastCode: string | null }>`
      with codes as (
        select id from qr_codes where id > ${afterCode} order by id limit ${batchSize}
      ), doomed as (
        delete from scan_groups where id = any(array(
          select old.id from codes cross join lateral (
            select id from scan_groups
            where qr_code_id = codes.id
              and first_at < date_trunc('second', now() - make_interval(days => ${scanDays}))
              and id <= (select folded_through_id from scan_rollup_state)
            limit ${batchSize}
          ) old
          limit ${batchSize}))
        returning coalesce(cardinality(times), 1) as scans
      )
      select count(*)::int as groups, coalesce(sum(scans), 0)::bigint as scans, (select max(id) from codes) as "lastCode"
      from doomed`.execute(session);
    scans += Number(batch!.scans);
    // A full batch may have left more of these codes' old groups: the same codes again. Else the next codes.
    if (batch!.groups >= batchSize) continue;
    if (batch!.lastCode === null) return scans;
    afterCode = batch!.lastCode;
  }
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
