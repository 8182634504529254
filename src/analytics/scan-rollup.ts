import { sql } from 'kysely';
import type { Database } from '../db/schema/index.js';

export interface FoldOptions {
  /** Most scan group ids folded in one transaction, so a backlog is taken in short steps (default 50,000). */
  maxIdsPerStep?: number;
  /** How long to wait for scan writes in flight before giving up this round (default 5 s). */
  writerWaitMs?: number;
  /** Stops between steps (shutdown). */
  signal?: AbortSignal;
}

export interface FoldResult {
  /**
   * `folded`: the rollup is up to date with every scan committed when the fold began. `busy`: another process was
   * folding. `waiting`: a transaction writing scans did not finish within `writerWaitMs`; nothing was folded.
   */
  status: 'folded' | 'busy' | 'waiting';
  scans: number;
  foldedThroughId: number;
}

const DEFAULTS = { maxIdsPerStep: 50_000, writerWaitMs: 5_000 };
const WRITER_POLL_MS = 10;

/**
 * Adds the scans recorded since the last fold to the hourly rollup and moves the watermark past them. The
 * watermark is a `scan_groups` id: every group up to it is counted, none above.
 *
 * Group ids come from a sequence, and a scan batch can commit after a later id has: reading `id > watermark` alone
 * would skip such a group for ever. So the fold first takes the highest committed id, then waits until every
 * transaction that was writing to `scan_groups` at that moment has ended (as CREATE INDEX CONCURRENTLY waits for
 * lockers): an insert takes its table lock before it draws an id, so every id up to that ceiling is then
 * committed or rolled back for good. (This relies on the identity's sequence having no per-session cache, the
 * default.) Nothing is asked of the scan-recording path.
 *
 * Each step locks the watermark row (SKIP LOCKED: a second instance skips the round instead of waiting), folds
 * ids in (watermark, step end], and moves the watermark in the same transaction, so no scan is counted twice.
 */
export async function foldScans(db: Database, options: FoldOptions = {}): Promise<FoldResult> {
  const { maxIdsPerStep, writerWaitMs } = { ...DEFAULTS, ...options };
  const { ceiling, writers } = await committedCeiling(db);
  if (!(await writersEnded(db, writers, writerWaitMs, options.signal))) {
    return { status: 'waiting', scans: 0, foldedThroughId: await currentWatermark(db) };
  }
  let scans = 0;
  for (;;) {
    const step = await db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ id: number }>`
        select folded_through_id as id from scan_rollup_state for update skip locked`.execute(trx);
      const from = rows[0]?.id;
      if (from === undefined) return { busy: true, through: 0, scans: 0 };
      if (from >= ceiling) return { busy: false, through: from, scans: 0, done: true };
      const through = Math.min(ceiling, from + maxIdsPerStep);
      return { busy: false, through, scans: await foldRange(trx, from, through), done: through >= ceiling };
    });
    scans += step.scans;
    if (step.busy) return { status: scans > 0 ? 'folded' : 'busy', scans, foldedThroughId: await currentWatermark(db) };
    if (step.done || options.signal?.aborted) return { status: 'folded', scans, foldedThroughId: step.through };
  }
}

/** The highest committed group id, and the transactions writing to `scan_groups` right after it was read. */
async function committedCeiling(db: Database): Promise<{ ceiling: number; writers: string[] }> {
  // One statement: its snapshot (for max) is taken before pg_locks is read. The database filter matters: tables
  // of databases cloned from one template share their oids.
  const { rows } = await sql<{ ceiling: number; writers: string[] }>`
    select coalesce((select max(id) from scan_groups), 0) as ceiling,
           array(select virtualtransaction from pg_locks
                 where locktype = 'relation' and relation = 'scan_groups'::regclass and mode = 'RowExclusiveLock'
                   and database = (select oid from pg_database where datname = current_database())
                   and pid is distinct from pg_backend_pid()) as writers`.execute(db);
  return rows[0]!;
}

async function writersEnded(db: Database, writers: string[], waitMs: number, signal?: AbortSignal): Promise<boolean> {
  if (writers.length === 0) return true;
  const deadline = Date.now() + waitMs;
  for (;;) {
    // A transaction keeps its table lock until it ends, and a virtual transaction id is never reused.
    const { rows } = await sql<{ left: number }>`
      select count(*)::int as left from pg_locks
      where locktype = 'relation' and relation = 'scan_groups'::regclass and mode = 'RowExclusiveLock'
        and database = (select oid from pg_database where datname = current_database())
        and virtualtransaction = any(${writers}::text[])`.execute(db);
    if (rows[0]!.left === 0) return true;
    if (Date.now() >= deadline || signal?.aborted) return false;
    await new Promise((resolve) => setTimeout(resolve, WRITER_POLL_MS));
  }
}

/**
 * Folds the groups with from < id <= through into the four rollup tables (per code and per account, by kind of
 * phone, and by every dimension: the migration 20261127T0100-scan-rollup-audience says why both); returns how many
 * scans that was. A group's times lie in one second, so in the hour its first one does: the group is counted
 * whole, without unpacking it, and its scans are unique or not together (is_unique is part of a group's key).
 * What a written row costs is kept down by the tables themselves (20261127T0240-rollup-fold-speed): no foreign key
 * to check per inserted row, and room on each page for the steady fold's updates to stay there (HOT).
 */
async function foldRange(db: Database, from: number, through: number): Promise<number> {
  const { rows } = await sql<{ scans: number }>`
    with folded as materialized (
      select qr_code_id, date_trunc('hour', first_at, 'UTC') as hour, device, os, browser, country, region, city, language,
             referrer_host, sum(coalesce(cardinality(times), 1)) as scans,
             sum(case when is_unique then coalesce(cardinality(times), 1) else 0 end) as unique_scans
      from scan_groups
      where id > ${from} and id <= ${through}
      group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
    ),
    -- Codes are looked up once per folded row, not once per scan: a busy code's hour is one lookup.
    owned as materialized (
      select c.account_id, f.* from folded f join qr_codes c on c.id = f.qr_code_id
    ),
    per_code as (
      insert into scan_hourly as r (qr_code_id, hour, device, os, browser, scans, unique_scans)
      select qr_code_id, hour, device, os, browser, sum(scans), sum(unique_scans) from folded group by 1, 2, 3, 4, 5
      on conflict (qr_code_id, hour, device, os, browser)
      do update set scans = r.scans + excluded.scans, unique_scans = r.unique_scans + excluded.unique_scans
    ),
    per_account as (
      insert into account_scan_hourly as r (account_id, hour, device, os, browser, scans, unique_scans)
      select account_id, hour, device, os, browser, sum(scans), sum(unique_scans) from owned group by 1, 2, 3, 4, 5
      on conflict (account_id, hour, device, os, browser)
      do update set scans = r.scans + excluded.scans, unique_scans = r.unique_scans + excluded.unique_scans
    ),
    per_code_audience as (
      insert into scan_hourly_audience as r
        (qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans)
      select qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans from folded
      on conflict (qr_code_id, hour, device, os, browser, country, region, city, language, referrer_host)
      do update set scans = r.scans + excluded.scans, unique_scans = r.unique_scans + excluded.unique_scans
    ),
    per_account_audience as (
      insert into account_scan_hourly_audience as r
        (account_id, hour, device, os, browser, country, region, city, language, referrer_host, scans, unique_scans)
      select account_id, hour, device, os, browser, country, region, city, language, referrer_host, sum(scans), sum(unique_scans)
      from owned group by 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
      on conflict (account_id, hour, device, os, browser, country, region, city, language, referrer_host)
      do update set scans = r.scans + excluded.scans, unique_scans = r.unique_scans + excluded.unique_scans
    ),
    watermark as (
      update scan_rollup_state set folded_through_id = ${through}, folded_at = now()
    )
    select coalesce(sum(scans), 0)::bigint as scans from folded`.execute(db);
  return rows[0]!.scans;
}

async function currentWatermark(db: Database): Promise<number> {
  const { rows } = await sql<{ id: number }>`select folded_through_id as id from scan_rollup_state`.execute(db);
  return rows[0]?.id ?? 0;
}
