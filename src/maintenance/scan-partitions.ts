import { sql } from 'kysely';
import type { Database } from '../db/schema/index.js';

/**
 * Upkeep of scan_groups' monthly partitions (the migration 20261127T0600-monthly-scan-partitions says how the table
 * is laid out; docs/operating/postgresql.md#scans-are-partitioned-by-month what it means for an operator).
 *
 * Everything here works through a transaction pooler (PgBouncer in transaction mode): settings are `set_config(...,
 * true)` inside the transaction they are for, and no temporary table is used.
 */

/** The current month and this many after it always have a partition. */
export const SCAN_MONTHS_AHEAD = 3;

/**
 * How long DDL here waits for a lock before giving up until the next run. Attaching a month locks the DEFAULT
 * partition, dropping one locks scan_groups itself (ACCESS EXCLUSIVE); while that request waits behind a long
 * analytics read, every scan write and read queues behind it. So it waits briefly: scan writes are batched off the
 * redirect's path and a second's wait is invisible to scanners.
 */
export const PARTITION_LOCK_TIMEOUT = '1s';

const DEFAULT_PARTITION = 'scan_groups_default';
const MONTH_PARTITION = /^scan_groups_(\d{4})_(\d{2})$/;

export interface PartitionUpkeep {
  /** Month partitions created (their scans, if any were waiting in the DEFAULT partition, moved into them). */
  created: string[];
  /** Month partitions dropped whole, and their scans. */
  dropped: string[];
  scans: number;
  /** Partitions whose lock did not come within PARTITION_LOCK_TIMEOUT: tried again next run. */
  busy: string[];
}

/** A UTC month, as the partition's name and bounds. */
interface Month {
  name: string;
  from: string;
  to: string;
}

function monthOf(year: number, monthIndex: number): Month {
  const start = new Date(Date.UTC(year, monthIndex, 1));
  const end = new Date(Date.UTC(year, monthIndex + 1, 1));
  const y = start.getUTCFullYear();
  const m = String(start.getUTCMonth() + 1).padStart(2, '0');
  return { name: `scan_groups_${y}_${m}`, from: start.toISOString(), to: end.toISOString() };
}

/** The month partitions `now`'s month and the SCAN_MONTHS_AHEAD after it need. */
export function monthsToKeepAhead(now: Date, ahead = SCAN_MONTHS_AHEAD): Month[] {
  return Array.from({ length: ahead + 1 }, (_, i) => monthOf(now.getUTCFullYear(), now.getUTCMonth() + i));
}

/** The month partitions of scan_groups, oldest first, with their bounds (read from their names). */
async function monthPartitions(db: Database): Promise<Month[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'scan_groups'::regclass order by c.relname`.execute(db);
  return rows.flatMap(({ name }) => {
    const match = MONTH_PARTITION.exec(name);
    return match ? [monthOf(Number(match[1]), Number(match[2]) - 1)] : [];
  });
}

function isLockTimeout(error: unknown): boolean {
  return (error as { code?: string } | undefined)?.code === '55P03';
}

/**
 * Creates the partitions of `now`'s month and the next SCAN_MONTHS_AHEAD that are missing. A month whose scans
 * sit in the DEFAULT partition (they arrived before it existed) is made as a table of its own, those scans are
 * moved into it, and it is attached, in one transaction: nobody ever sees them missing or twice. A table attached
 * this way costs scan writes nothing (ATTACH takes SHARE UPDATE EXCLUSIVE on scan_groups; CREATE TABLE ...
 * PARTITION OF would take ACCESS EXCLUSIVE), only the DEFAULT partition is locked while it is checked.
 */
export async function createComingMonths(db: Database, now = new Date(), ahead = SCAN_MONTHS_AHEAD): Promise<Pick<PartitionUpkeep, 'created' | 'busy'>> {
  const existing = new Set((await monthPartitions(db)).map((month) => month.name));
  const created: string[] = [];
  const busy: string[] = [];
  for (const month of monthsToKeepAhead(now, ahead)) {
    if (existing.has(month.name)) continue;
    try {
      await db.transaction().execute(async (trx) => {
        await sql`select set_config('lock_timeout', ${PARTITION_LOCK_TIMEOUT}, true)`.execute(trx);
        await sql`create table ${sql.table(month.name)} (like scan_groups including defaults including constraints)`.execute(trx);
        await sql`
          with moved as (
            delete from ${sql.table(DEFAULT_PARTITION)} where first_at >= ${month.from}::timestamptz and first_at < ${month.to}::timestamptz
            returning *
          )
          insert into ${sql.table(month.name)} select * from moved`.execute(trx);
        await sql`
          alter table scan_groups attach partition ${sql.table(month.name)}
          for values from (${sql.lit(month.from)}) to (${sql.lit(month.to)})`.execute(trx);
      });
      created.push(month.name);
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      busy.push(month.name);
    }
  }
  return { created, busy };
}

/**
 * Drops each month partition that lies wholly before now − `scanDays` and whose every group the analytics rollup
 * has folded (its history must outlive the raw rows). The scans are counted first, without a lock; the drop then
 * detaches the month under a short lock timeout and checks again, under that lock, that its newest group is still
 * the one counted and folded (a scan replayed into the old month meanwhile keeps it for the next run).
 */
export async function dropExpiredMonths(db: Database, scanDays: number): Promise<Pick<PartitionUpkeep, 'dropped' | 'scans' | 'busy'>> {
  const { rows: [limits] } = await sql<{ cutoff: Date; folded: string }>`
    select now() - make_interval(days => ${scanDays}) as cutoff,
           (select folded_through_id from scan_rollup_state)::text as folded`.execute(db);
  const folded = BigInt(limits!.folded ?? '0');
  const dropped: string[] = [];
  const busy: string[] = [];
  let scans = 0;
  for (const month of await monthPartitions(db)) {
    if (new Date(month.to) > limits!.cutoff) break;
    const content = await scansOf(db, month.name);
    if (content.newest !== null && BigInt(content.newest) > folded) continue;
    try {
      const gone = await db.transaction().execute(async (trx) => {
        await sql`select set_config('lock_timeout', ${PARTITION_LOCK_TIMEOUT}, true)`.execute(trx);
        await sql`alter table scan_groups detach partition ${sql.table(month.name)}`.execute(trx);
        const { rows: [now] } = await sql<{ newest: string | null }>`select max(id)::text as newest from ${sql.table(month.name)}`.execute(trx);
        if (now!.newest !== content.newest) throw new Changed();
        await sql`drop table ${sql.table(month.name)}`.execute(trx);
        return true;
      }).catch((error: unknown) => {
        if (error instanceof Changed) return false;
        throw error;
      });
      if (!gone) continue;
      dropped.push(month.name);
      scans += content.scans;
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      busy.push(month.name);
    }
  }
  return { dropped, scans, busy };
}

/** Groups counted per statement: a month of a busy install holds tens of millions, past any statement timeout. */
const COUNT_CHUNK = 100_000;

/** A partition's scans and its newest group id, counted in chunks of groups along its primary key. */
async function scansOf(db: Database, partition: string): Promise<{ scans: number; newest: string | null }> {
  let scans = 0;
  let newest: string | null = null;
  for (;;) {
    const { rows: [chunk] } = await sql<{ groups: number; scans: string; last: string | null }>`
      select count(*)::int as groups, coalesce(sum(coalesce(cardinality(times), 1)), 0)::text as scans, max(id)::text as last
      from (select id, times from ${sql.table(partition)} where id > ${newest ?? '0'}::bigint order by id limit ${COUNT_CHUNK}) chunk`.execute(db);
    scans += Number(chunk!.scans);
    if (chunk!.last !== null) newest = chunk!.last;
    if (chunk!.groups < COUNT_CHUNK) return { scans, newest };
  }
}

/** A month changed between its count and its drop: rolled back, kept for the next run. */
class Changed extends Error {}

/**
 * Scans of the DEFAULT partition past `scanDays` and folded, `batchSize` groups per statement: a month without a
 * partition of its own (older than the partitions, or too far ahead) holds few, so they go row by row as all scans
 * did before partitioning.
 */
export async function pruneDefaultPartition(db: Database, scanDays: number, batchSize: number): Promise<number> {
  let scans = 0;
  for (;;) {
    const { rows: [batch] } = await sql<{ groups: number; scans: string }>`
      with doomed as (
        delete from ${sql.table(DEFAULT_PARTITION)} where id = any(array(
          select id from ${sql.table(DEFAULT_PARTITION)}
          where first_at < date_trunc('second', now() - make_interval(days => ${scanDays}))
            and id <= (select folded_through_id from scan_rollup_state)
          limit ${batchSize}))
        returning coalesce(cardinality(times), 1) as scans
      )
      select count(*)::int as groups, coalesce(sum(scans), 0)::text as scans from doomed`.execute(db);
    scans += Number(batch!.scans);
    if (batch!.groups < batchSize) return scans;
  }
}
