import { Migrator, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { eraseAccount } from '../../src/accounts/account-erasure.js';
import { foldScans } from '../../src/analytics/scan-rollup.js';
import { foldScanCounts } from '../../src/codes/scan-counts.js';
import { createDatabase } from '../../src/db/database.js';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { createComingMonths } from '../../src/maintenance/scan-partitions.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';
import { insertBareCode } from '../support/factories.js';

// Scans partitioned by month (src/db/migrations/20261127T0600-monthly-scan-partitions.ts, src/maintenance/scan-partitions.ts).

let database: TestDatabase;
useTestDatabase((created) => (database = created));

const DAY = 86_400_000;

/** Noon on the 15th of the month `offset` months from the current one (UTC): well inside it. */
function inMonth(offset: number, day = 15): Date {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, day, 12));
}

function partitionOf(at: Date): string {
  return `scan_groups_${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}


/** Records scans of `code` at `times` through the scan batch, as the redirect does (scans of one second pack). */
async function record(code: { accountId: string; codeId: string }, times: Date[], device = 'mobile'): Promise<void> {
  const scans: ScanEvent[] = times.map((at) => ({
    codeId: code.codeId, accountId: code.accountId, at, device, os: 'iOS', browser: 'Mobile Safari',
    destinationUrl: 'https://example.com/', referrerHost: null, country: 'DE', region: null, city: null, language: 'de', visitor: null, bot: false,
  }));
  await writeScanBatch(database.db, prepareScanBatch(scans));
}

/** Where each of a code's groups is stored, by first time. */
async function partitionsOfCode(codeId: string): Promise<Array<{ at: string; partition: string }>> {
  const { rows } = await sql<{ at: Date; partition: string }>`
    select first_at as at, tableoid::regclass::text as partition from scan_groups where qr_code_id = ${codeId} order by first_at`.execute(database.db);
  return rows.map((row) => ({ at: row.at.toISOString(), partition: row.partition }));
}

async function exists(table: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select to_regclass(${table}) is not null as found`.execute(database.db);
  return rows[0]!.found;
}

/** Everything a reader counts: scans per code (the view), lifetime counters, the rollup and its watermark. */
async function everyCount() {
  const { rows: scans } = await sql<{ code: string; scans: number; unique: number; groups: number }>`
    select qr_code_id as code, count(*)::int as scans, count(*) filter (where is_unique)::int as unique, count(distinct group_id)::int as groups
    from scans group by 1 order by 1`.execute(database.db);
  const { rows: codes } = await sql<{ id: string; scan_count: string; unique_scan_count: string }>`
    select id, scan_count::text, unique_scan_count::text from qr_codes order by id`.execute(database.db);
  const { rows: rollup } = await sql<{ code: string; scans: string; unique: string }>`
    select qr_code_id as code, sum(scans)::text as scans, sum(unique_scans)::text as unique from scan_hourly group by 1 order by 1`.execute(database.db);
  const { rows: audience } = await sql<{ scans: string }>`select sum(scans)::text as scans from scan_hourly_audience`.execute(database.db);
  const { rows: state } = await sql<{ folded: string; max: string }>`
    select folded_through_id::text as folded, (select max(id) from scan_groups)::text as max from scan_rollup_state`.execute(database.db);
  return { scans, codes, rollup, audience, state };
}

describe('the upgrade to monthly partitions', () => {
  it('keeps every scan, id and count of a database with scans, each in its month (the DEFAULT partition for a clock set wrong)', async () => {
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    const down = await migrator.migrateTo('20261127T0300-code-routing');
    expect(down.error).toBeUndefined();

    const poster = await insertBareCode(database.db);
    const flyer = await insertBareCode(database.db);
    const now = new Date();
    const second = new Date(Math.floor(now.getTime() / 1000) * 1000);
    // A group of three (one second), a group of one now, and one a month, back over a year, on two codes.
    await record(poster, [second, new Date(second.getTime() + 100), new Date(second.getTime() + 200)]);
    await record(poster, [second], 'desktop');
    for (let months = 1; months <= 13; months++) await record(months % 2 ? poster : flyer, [inMonth(-months, 3), inMonth(-months, 20)]);
    const wrongClock = new Date(Date.UTC(now.getUTCFullYear() + 3, 0, 10, 12));
    await record(flyer, [wrongClock]);
    await sql`update scan_groups set is_unique = (id % 2 = 0)`.execute(database.db);
    // Folded up to here (counters and rollup); the scans after stay for the new version's fold.
    await foldScans(database.db);
    await foldScanCounts(database.db);
    await record(flyer, [new Date(now.getTime() - 2 * DAY)]);
    const before = await everyCount();
    const { rows: [{ next: nextBefore }] } = await sql<{ next: string }>`select last_value::text as next from scan_groups_id_seq`.execute(database.db) as { rows: [{ next: string }] };

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();

    expect(await everyCount()).toEqual(before);
    // Each group in its month's partition; the future one (no partition that far ahead) in the default one.
    const stored = [...(await partitionsOfCode(poster.codeId)), ...(await partitionsOfCode(flyer.codeId))];
    expect(stored).toHaveLength(before.scans.reduce((sum, code) => sum + code.groups, 0));
    for (const { at, partition } of stored) {
      expect(partition).toBe(at === wrongClock.toISOString() ? 'scan_groups_default' : partitionOf(new Date(at)));
    }
    expect(await exists(partitionOf(inMonth(-13)))).toBe(true);
    expect(await exists(partitionOf(inMonth(3)))).toBe(true);
    expect(await exists(partitionOf(inMonth(4)))).toBe(false);

    // New groups continue the ids; the new version's fold takes the rest, and the rollup then counts every scan.
    await record(poster, [new Date()]);
    const { rows: [newest] } = await sql<{ id: string }>`select max(id)::text as id from scan_groups`.execute(database.db);
    expect(BigInt(newest!.id)).toBeGreaterThan(BigInt(nextBefore));
    expect(await foldScans(database.db)).toMatchObject({ status: 'folded', scans: 2 });
    const { rows: [totals] } = await sql<{ stored: string; rolled: string }>`
      select (select count(*) from scans)::text as stored, (select sum(scans) from scan_hourly)::text as rolled`.execute(database.db);
    expect(totals!.rolled).toBe(totals!.stored);
  });
});

describe('monthly partitions', () => {
  it('stores new scans in their month, a scan of a month without a partition in the DEFAULT one, moved when its month is made', async () => {
    const code = await insertBareCode(database.db);
    await createComingMonths(database.db);
    const farAhead = inMonth(5); // a phone's clock set wrong, or the journal of a machine that had one
    await record(code, [new Date(), inMonth(2)]);
    await record(code, [farAhead]);
    const { rows: [{ id }] } = await sql<{ id: string }>`select id::text from scan_groups where first_at = ${farAhead}`.execute(database.db) as { rows: [{ id: string }] };

    expect((await partitionsOfCode(code.codeId)).map((group) => group.partition)).toEqual([
      partitionOf(new Date()), partitionOf(inMonth(2)), 'scan_groups_default',
    ]);

    // Two months on, the pruning job keeps that month ahead: the scan moves into it, the same group.
    const created = await createComingMonths(database.db, inMonth(2));
    expect(created.created).toContain(partitionOf(farAhead));
    expect((await partitionsOfCode(code.codeId)).map((group) => group.partition)).toEqual([
      partitionOf(new Date()), partitionOf(inMonth(2)), partitionOf(farAhead),
    ]);
    const { rows } = await sql<{ id: string }>`select group_id::text as id from scans where qr_code_id = ${code.codeId} and created_at = ${farAhead}`.execute(database.db);
    expect(rows).toEqual([{ id }]);
  });

  it('past SCAN_RETENTION_DAYS drops whole months the rollup has folded, keeps a partly expired month and an unfolded one', async () => {
    await sql`truncate scan_groups`.execute(database.db);
    const code = await insertBareCode(database.db);
    await createComingMonths(database.db, inMonth(-14));
    // The cutoff falls on the 15th of month −11: months −14 to −12 lie wholly before it, −11 partly.
    const scanDays = Math.round((Date.now() - inMonth(-11).getTime()) / DAY);
    const folded = [inMonth(-14), inMonth(-14, 16), inMonth(-13), inMonth(-11, 2)];
    await record(code, folded);
    const longAgo = new Date(Date.UTC(2001, 0, 1)); // older than any partition: the DEFAULT one's, deleted row by row
    await record(code, [longAgo]);
    await foldScans(database.db);
    await record(code, [inMonth(-12)]); // not yet in the rollup

    // A long analytics read holds scan_groups: the drop gives up after its lock timeout, and scan writes made
    // meanwhile do not queue behind it until the read ends.
    const reader = new pg.Client({ connectionString: database.connectionString });
    await reader.connect();
    try {
      await reader.query('begin');
      await reader.query('select count(*) from scan_groups');
      const pruning = pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays });
      await new Promise((resolve) => setTimeout(resolve, 100));
      const written = record(code, [new Date()]);
      const stuck = new Promise((_, reject) => setTimeout(() => reject(new Error('a scan write waited for the read')), 5_000));
      await Promise.race([written, stuck]);
      expect(await pruning).toMatchObject({ scans: 1, scanPartitionsBusy: 2, scanPartitionsDropped: 0 }); // the DEFAULT partition's
      expect(await exists(partitionOf(inMonth(-14)))).toBe(true);
    } finally {
      await reader.end();
    }

    const counts = await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays });
    expect(counts).toMatchObject({ scans: 3, scanPartitionsBusy: 0 });
    expect(await exists(partitionOf(inMonth(-14)))).toBe(false);
    expect(await exists(partitionOf(inMonth(-13)))).toBe(false);
    expect((await partitionsOfCode(code.codeId)).map((group) => group.partition)).toEqual([
      partitionOf(inMonth(-12)), partitionOf(inMonth(-11)), partitionOf(new Date()),
    ]);

    // Once folded, the unfolded month goes too; the partly expired one stays until all of it is past retention.
    await foldScans(database.db);
    expect(await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays })).toMatchObject({ scans: 1 });
    expect((await partitionsOfCode(code.codeId)).map((group) => group.partition)).toEqual([partitionOf(inMonth(-11)), partitionOf(new Date())]);
    // The rollup keeps their history.
    const { rows: [rolled] } = await sql<{ scans: string }>`select sum(scans)::text as scans from scan_hourly where qr_code_id = ${code.codeId}`.execute(database.db);
    expect(rolled!.scans).toBe('7');
  });
  it('lets erasing an account delete its scans only, though another month holds scans at the same place', async () => {
    await sql`truncate scan_groups`.execute(database.db);
    await createComingMonths(database.db, inMonth(-1));
    const erased = await insertBareCode(database.db);
    const kept = await insertBareCode(database.db);
    // Each the first row of its month's partition: the same ctid, (0,1), in two tables.
    await record(erased, [inMonth(-1)]);
    await record(kept, [new Date()]);
    await eraseAccount(database.db, erased.accountId);
    const { rows } = await sql<{ code: string }>`select qr_code_id as code from scans`.execute(database.db);
    expect(rows).toEqual([{ code: kept.codeId }]);
  });
});

describe('the pruning lock', () => {
  it('is held on a session of lockDb while the work runs through db, which keeps no session state (a transaction pooler)', async () => {
    // One connection each: were the lock taken on db's only connection, the work could never get one.
    const db = createDatabase(database.connectionString, { logger: pino({ level: 'silent' }), maxConnections: 1 });
    const lockDb = createDatabase(database.connectionString, { logger: pino({ level: 'silent' }), maxConnections: 1 });
    try {
      const { rows: [lockSession] } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(lockDb);
      const { rows: [workSession] } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db);
      const pruned = pruneExpired(db, { webhookDeliveryDays: 30, scanDays: 90 }, 1000, lockDb);
      const timeout = new Promise((_, reject) => setTimeout(() => reject(new Error('pruning waited for a connection')), 10_000));
      expect(await Promise.race([pruned, timeout])).toMatchObject({ scanPartitionsBusy: 0 });
      // Another process trying meanwhile skips; after the run, no session holds the lock.
      await sql`select pg_advisory_lock(hashtextextended('qroute:prune', 0))`.execute(lockDb);
      expect(await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: undefined })).toBeUndefined();
      await sql`select pg_advisory_unlock(hashtextextended('qroute:prune', 0))`.execute(lockDb);
      // This database's only: pg_locks shows the whole cluster, where other files' apps take advisory locks.
      const { rows } = await sql<{ pid: number }>`select pid from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`.execute(database.db);
      expect(rows).toEqual([]);
      expect(lockSession!.pid).not.toBe(workSession!.pid);
    } finally {
      await db.destroy();
      await lockDb.destroy();
    }
  });
});
