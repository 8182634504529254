/**
 * `BENCH_PARTS=analytics npm run bench`: the dashboard's analytics queries (src/analytics/) at the issue's scale.
 *
 * Seeds, with generate_series, one code with BENCH_ANALYTICS_SCANS scans (default 10M) and one account with
 * BENCH_ANALYTICS_CODES codes (default 1M) sharing as many scans again, both spread over the last 365 days with a
 * realistic mix of 17 (device, os, browser) combinations; folds them all into the rollup (timed: the catch-up
 * rate after an outage or an upgrade), times one steady-state fold, then leaves a few thousand unfolded scans
 * (the seconds since the last fold) that every query also reads.
 *
 * Reports the p50 (and max) over BENCH_ANALYTICS_RUNS runs (default 7) of totals, scans over time and breakdowns
 * for each range in Europe/Berlin, the dashboard's recent scans and the time to the first chunk of CSV, for the
 * code and for the account; then
 * EXPLAIN (ANALYZE, BUFFERS) of the slowest statement of the three slowest calls. Seeding takes minutes on 2 cores.
 */
import { Kysely, type LogEvent, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import {
  type AnalyticsScope,
  audienceBreakdowns,
  exportScansCsv,
  foldScans,
  rankedCodes,
  SCAN_RANGES,
  scanBreakdowns,
  scansByWeekHour,
  scanTimeSeries,
  scanTotals,
} from '../../src/analytics/index.js';
import { recentScans } from '../../src/analytics/recent-scans.js';
import { createDatabase, NO_STATEMENT_TIMEOUTS } from '../../src/db/database.js';
import type { Database, DatabaseSchema } from '../../src/db/schema/index.js';
import { newId } from '../../src/ids.js';
import { createComingMonths } from '../../src/maintenance/scan-partitions.js';
import { median } from './processes.js';

const SCANS = Number(process.env.BENCH_ANALYTICS_SCANS ?? 10_000_000);
const CODES = Number(process.env.BENCH_ANALYTICS_CODES ?? 1_000_000);
const RUNS = Number(process.env.BENCH_ANALYTICS_RUNS ?? 7);
const TIME_ZONE = 'Europe/Berlin';
/** Rows per seeding statement: each commits on its own, so progress shows and WAL stays bounded. */
const SEED_STEP = 1_000_000;
/** Scans written after the last fold, read raw by every query (5 s of a busy instance). */
const TAIL = 2_000;

/** Weighted like a poster's real audience: mostly phones, mostly the platform's own browser. */
const COMBOS: Array<[device: string, os: string, browser: string, weight: number]> = [
  ['mobile', 'iOS', 'Mobile Safari', 30], ['mobile', 'Android', 'Chrome', 25], ['mobile', 'Android', 'Samsung Browser', 6],
  ['mobile', 'iOS', 'Chrome', 4], ['mobile', 'iOS', 'Instagram', 3], ['mobile', 'Android', 'Facebook', 2],
  ['tablet', 'iOS', 'Mobile Safari', 5], ['tablet', 'Android', 'Chrome', 2], ['desktop', 'Windows', 'Chrome', 8],
  ['desktop', 'Mac OS', 'Safari', 4], ['desktop', 'Windows', 'Edge', 3], ['desktop', 'Linux', 'Firefox', 1],
  ['unknown', 'unknown', 'unknown', 2], ['mobile', 'Android', 'Firefox', 1], ['desktop', 'Mac OS', 'Chrome', 2],
  ['smarttv', 'Tizen', 'Samsung Browser', 1], ['mobile', 'HarmonyOS', 'Huawei Browser', 1],
];

/**
 * Where a poster's audience is from and which language its phones ask for (issue 27): mostly one country, a few
 * neighbours and travellers, a language per country with English beside it. Region and city only with
 * BENCH_ANALYTICS_CITIES=1 (the embedded database has countries only; a city database multiplies rollup rows).
 */
const AUDIENCE: Array<[country: string | null, language: string | null, region: string, city: string, weight: number]> = [
  ['DE', 'de', 'Bavaria', 'Munich', 30], ['DE', 'de', 'Berlin', 'Berlin', 20], ['DE', 'en', 'Hamburg', 'Hamburg', 8],
  ['DE', 'tr', 'Hesse', 'Frankfurt am Main', 4], ['AT', 'de', 'Vienna', 'Vienna', 6], ['CH', 'de', 'Zurich', 'Zurich', 4],
  ['CH', 'fr', 'Geneva', 'Geneva', 1], ['US', 'en', 'California', 'San Francisco', 5], ['GB', 'en', 'England', 'London', 4],
  ['FR', 'fr', 'Ile-de-France', 'Paris', 3], ['NL', 'nl', 'North Holland', 'Amsterdam', 2], ['PL', 'pl', 'Mazovia', 'Warsaw', 2],
  ['IT', 'it', 'Lombardy', 'Milan', 2], ['ES', 'es', 'Madrid', 'Madrid', 2], [null, 'de', '', '', 3], [null, null, '', '', 2],
  ['IN', 'en', 'Karnataka', 'Bengaluru', 1], ['JP', 'ja', 'Tokyo', 'Tokyo', 1],
];
const WITH_CITIES = process.env.BENCH_ANALYTICS_CITIES === '1';

export async function benchAnalytics(database: { connectionString: string }): Promise<void> {
  // Seeding statements run for minutes: a pool without the service's statement timeouts.
  const db = createDatabase(database.connectionString, { logger: pino({ level: 'warn' }), timeouts: NO_STATEMENT_TIMEOUTS });
  try {
    await run(db, database.connectionString);
  } finally {
    await db.destroy();
  }
}

async function run(db: Database, connectionString: string): Promise<void> {
  console.log(`\nanalytics: ${SCANS.toLocaleString('en')} scans on one code; ${CODES.toLocaleString('en')} codes in one account sharing as many`);
  const seeded = await seed(db);
  const folded = await timed(() => foldScans(db, { maxIdsPerStep: 1_000_000 }));
  const total = folded.result.scans;
  console.log(`fold of all ${total.toLocaleString('en')} scans (catch-up): ${(folded.ms / 1000).toFixed(0)} s, ${Math.round(total / (folded.ms / 1000)).toLocaleString('en')} scans/s`);
  await addScans(db, seeded, 50_000, '10 seconds');
  const steady = await timed(() => foldScans(db));
  console.log(`one steady-state fold of ${steady.result.scans.toLocaleString('en')} new scans (10 s at 5,000 scans/s): ${steady.ms.toFixed(0)} ms`);
  await addScans(db, seeded, TAIL / 2, '5 seconds');
  await sql`vacuum analyze scan_hourly`.execute(db);
  await sql`vacuum analyze account_scan_hourly`.execute(db);
  const rollupRows = await sql<{ code: number; account: number }>`
    select (select count(*) from scan_hourly where qr_code_id = ${seeded.codeId}) as code,
           (select count(*) from account_scan_hourly where account_id = ${seeded.manyAccountId}) as account`.execute(db);
  console.log(`rollup rows read for "all": code ${rollupRows.rows[0]!.code.toLocaleString('en')}, account ${rollupRows.rows[0]!.account.toLocaleString('en')}; ${TAIL} scans left unfolded`);
  await sql`vacuum analyze scan_hourly_audience`.execute(db);
  await sql`vacuum analyze account_scan_hourly_audience`.execute(db);
  const audienceRows = await sql<{ code: number; account: number; table: number }>`
    select (select count(*) from scan_hourly_audience where qr_code_id = ${seeded.codeId}) as code,
           (select count(*) from account_scan_hourly_audience where account_id = ${seeded.manyAccountId}) as account,
           (select count(*) from scan_hourly_audience) as table`.execute(db);
  const a = audienceRows.rows[0]!;
  console.log(`audience rollup rows${WITH_CITIES ? ' (with cities)' : ''}: code ${a.code.toLocaleString('en')}, account ${a.account.toLocaleString('en')}, per-code table ${a.table.toLocaleString('en')}`);

  const { logged, captured, close } = loggingDatabase(connectionString);
  try {
    const scopes: Array<[string, AnalyticsScope]> = [
      ['code', { accountId: seeded.oneAccountId, codeId: seeded.codeId }],
      ['account', { accountId: seeded.manyAccountId }],
    ];
    const results: Array<{ name: string; p50: number; run: () => Promise<unknown> }> = [];
    console.log(`\np50 (max) of ${RUNS} runs, ${TIME_ZONE}`);
    const measure = async (name: string, run: () => Promise<unknown>) => {
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await timed(run)).ms);
      results.push({ name, p50: median(times), run });
      console.log(`${name.padEnd(34)} ${median(times).toFixed(1).padStart(8)} ms  (${Math.max(...times).toFixed(1)})`);
    };
    for (const [label, scope] of scopes) {
      await measure(`${label} totals`, () => scanTotals(logged, scope));
      for (const range of SCAN_RANGES) {
        await measure(`${label} scans over time ${range}`, () => scanTimeSeries(logged, { scope, range, timeZone: TIME_ZONE }));
        await measure(`${label} breakdowns ${range}`, () => scanBreakdowns(logged, { scope, range, timeZone: TIME_ZONE }));
      }
      // Issue 27: the audience tables, the week's hours and (for the account) its ranked codes, unfiltered and
      // narrowed to one country (which reads the rollup by every dimension for the series too).
      for (const range of ['30d', 'all'] as const) {
        await measure(`${label} audience ${range}`, () => audienceBreakdowns(logged, { scope, range, timeZone: TIME_ZONE }));
        await measure(`${label} week hours ${range}`, () => scansByWeekHour(logged, { scope, range, timeZone: TIME_ZONE }));
        if (!scope.codeId) await measure(`${label} ranked codes ${range}`, () => rankedCodes(logged, { accountId: scope.accountId, range, timeZone: TIME_ZONE }));
        await measure(`${label} over time ${range}, country=AT`, () => scanTimeSeries(logged, { scope, range, timeZone: TIME_ZONE, filters: { country: 'AT' } }));
        await measure(`${label} audience ${range}, country=AT`, () => audienceBreakdowns(logged, { scope, range, timeZone: TIME_ZONE, filters: { country: 'AT' } }));
      }
      await measure(`${label} recent scans`, () => recentScans(logged, scope));
      await measure(`${label} CSV first chunk`, async () => {
        const chunks = (await exportScansCsv(logged, scope))[Symbol.asyncIterator]();
        await chunks.next(); // the header
        await chunks.next();
        await chunks.return?.(undefined);
      });
    }
    for (const slowest of [...results].sort((a, b) => b.p50 - a.p50).slice(0, 3)) await explainSlowest(logged, captured, slowest);
  } finally {
    await close();
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of the slowest statement `run` sends. */
async function explainSlowest(
  logged: Kysely<DatabaseSchema>,
  captured: Array<Extract<LogEvent, { level: 'query' }>>,
  slow: { name: string; run: () => Promise<unknown> },
): Promise<void> {
  captured.length = 0;
  await slow.run();
  const statement = captured.reduce((a, b) => (b.queryDurationMillis > a.queryDurationMillis ? b : a));
  const { rows } = await logged.executeQuery<{ 'QUERY PLAN': string }>({ ...statement.query, sql: `explain (analyze, buffers) ${statement.query.sql}` });
  console.log(`\n${slow.name}: its slowest statement (${statement.queryDurationMillis.toFixed(1)} ms)`);
  for (const row of rows) console.log(`  ${row['QUERY PLAN']}`);
}

interface Seeded {
  oneAccountId: string;
  codeId: string;
  manyAccountId: string;
  /** Ids of the many codes: this and a zero-padded counter from 1 (same length as any id, still in order). */
  manyPrefix: string;
}

async function seed(db: Database): Promise<Seeded> {
  const started = Date.now();
  const oneAccountId = newId('acc');
  const manyAccountId = newId('acc');
  const codeId = newId('qr');
  const manyPrefix = newId('qr').slice(0, -8);
  await sql`insert into accounts (id, name, plan, code_limit) values
    (${oneAccountId}, 'one busy code', 'business', null), (${manyAccountId}, 'a million codes', 'business', ${CODES})`.execute(db);
  // The per-row NOTIFY (for redirect caches) would cost most of the seeding time; nobody listens here.
  await sql`alter table qr_codes disable trigger qr_codes_notify_insert`.execute(db);
  await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
    values (${codeId}, ${oneAccountId}, 'Busy poster', 'B0SY0000', 'https://example.com/busy', now() - interval '366 days', now())`.execute(db);
  for (let from = 1; from <= CODES; from += SEED_STEP) {
    await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
      select ${manyPrefix} || lpad(g::text, 8, '0'), ${manyAccountId}, 'Code ' || g, 'M' || lpad(upper(to_hex(g)), 7, '0'),
             'https://example.com/c/' || g, now() - interval '366 days', now()
      from generate_series(${from}::int, ${Math.min(CODES, from + SEED_STEP - 1)}::int) g`.execute(db);
  }
  await sql`alter table qr_codes enable trigger qr_codes_notify_insert`.execute(db);
  console.log(`seeded ${CODES.toLocaleString('en')} codes in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // Built once after the rows are in: maintaining it row by row would double the seeding time. A code scanned
  // 10M times in a year gets a scan every 3 s, so each scan is a group of its own (packing's worst case).
  await sql`drop index scan_groups_code_newest`.execute(db);
  // A year of months, as a year-old install has them (the pruning job makes each ahead of time): without them every
  // seeded scan would sit in the DEFAULT partition, which no real install's scans do.
  await createComingMonths(db, new Date(Date.now() - 366 * 86_400_000), 13);
  const step = `${(365 * 86_400_000) / SCANS} milliseconds`;
  for (let from = 1; from <= SCANS; from += SEED_STEP) {
    const to = Math.min(SCANS, from + SEED_STEP - 1);
    await sql`insert into scan_groups (qr_code_id, first_at, times, device, os, browser, destination_url, referrer_host,
                                       country, region, city, language, is_unique)
      select ${codeId}, t.at, null, c.device, c.os, c.browser,
             'https://example.com/busy', case when g % 5 = 0 then 'instagram.com' end,
             a.country, a.region, a.city, a.language, g % 3 <> 0
      from generate_series(${from}::int, ${to}::int) g
      cross join lateral (select now() - interval '365 days' + g * ${step}::interval as at) t
      join (${combos()}) c on c.slot = (hashint4(g) & 2147483647) % 100
      join (${audience()}) a on a.slot = (hashint4(g + 7919) & 2147483647) % 100`.execute(db);
    await sql`insert into scan_groups (qr_code_id, first_at, times, device, os, browser, destination_url, referrer_host,
                                       country, region, city, language, is_unique)
      select ${manyPrefix} || lpad((1 + (hashint4(-g) & 2147483647) % ${CODES})::text, 8, '0'),
             t.at, null, c.device, c.os, c.browser,
             'https://example.com/c', case when g % 7 = 0 then 'facebook.com' end,
             a.country, a.region, a.city, a.language, g % 3 <> 0
      from generate_series(${from}::int, ${to}::int) g
      cross join lateral (select now() - interval '365 days' + g * ${step}::interval as at) t
      join (${combos()}) c on c.slot = (hashint4(g) & 2147483647) % 100
      join (${audience()}) a on a.slot = (hashint4(g + 7919) & 2147483647) % 100`.execute(db);
  }
  console.log(`seeded ${(2 * SCANS).toLocaleString('en')} scans in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await sql`create index scan_groups_code_newest on scan_groups (qr_code_id, first_at desc, id desc)`.execute(db);
  await sql`update qr_codes set scan_count = ${SCANS}, bot_scan_count = ${Math.round(SCANS / 50)} where id = ${codeId}`.execute(db);
  await sql`update qr_codes c set scan_count = n, bot_scan_count = n / 10
    from (select qr_code_id, count(*) as n from scan_groups where qr_code_id like ${`${manyPrefix}%`} group by 1) s where s.qr_code_id = c.id`.execute(db);
  await sql`vacuum analyze scan_groups`.execute(db);
  await sql`vacuum analyze qr_codes`.execute(db);
  console.log(`seeded, indexed and analysed in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return { oneAccountId, codeId, manyAccountId, manyPrefix };
}

/** The combinations as 100 weighted slots, numbered from 0. */
function combos() {
  const slots = COMBOS.flatMap(([device, os, browser, weight]) => Array.from({ length: weight }, () => [device, os, browser] as const));
  if (slots.length !== 100) throw new Error(`combination weights add up to ${slots.length}, not 100`);
  return sql`select device, os, browser, (n - 1)::int as slot
    from unnest(${slots.map((s) => s[0])}::text[], ${slots.map((s) => s[1])}::text[], ${slots.map((s) => s[2])}::text[])
    with ordinality as t(device, os, browser, n)`;
}

/** The audience as 100 weighted slots, numbered from 0. */
function audience() {
  const slots = AUDIENCE.flatMap(([country, language, region, city, weight]) =>
    Array.from({ length: weight }, () => [country, language, WITH_CITIES && region ? region : null, WITH_CITIES && city ? city : null] as const));
  if (slots.length !== 100) throw new Error(`audience weights add up to ${slots.length}, not 100`);
  return sql`select country, language, region, city, (n - 1)::int as slot
    from unnest(${slots.map((s) => s[0])}::text[], ${slots.map((s) => s[1])}::text[], ${slots.map((s) => s[2])}::text[],
                ${slots.map((s) => s[3])}::text[])
    with ordinality as t(country, language, region, city, n)`;
}

/** `count` new scans over the last `within`, half on the busy code, half across the many codes (counters too). */
async function addScans(db: Database, seeded: Seeded, count: number, within: string): Promise<void> {
  const someCode = sql`${seeded.manyPrefix}::text || lpad((1 + (hashint4(g) & 2147483647) % ${CODES})::text, 8, '0')`;
  await sql`
    with added as (
      insert into scan_groups (qr_code_id, first_at, times, device, os, browser, destination_url)
      select case when g % 2 = 0 then ${seeded.codeId} else ${someCode} end, at, null,
             'mobile', 'iOS', 'Mobile Safari', 'https://example.com/'
      from (select g, now() - ${within}::interval * random() as at from generate_series(1, ${count}) g) as t
      returning qr_code_id
    )
    update qr_codes c set scan_count = scan_count + a.n
    from (select qr_code_id, count(*) as n from added group by 1) a where c.id = a.qr_code_id`.execute(db);
}

async function timed<T>(run: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = performance.now();
  const result = await run();
  return { result, ms: performance.now() - started };
}

/** A second pool whose statements are logged with their duration, to EXPLAIN the slowest. */
function loggingDatabase(connectionString: string) {
  const captured: Array<Extract<LogEvent, { level: 'query' }>> = [];
  const pool = new pg.Pool({
    connectionString,
    max: 2,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  const logged = new Kysely<DatabaseSchema>({
    dialect: new PostgresDialect({ pool }),
    log: (event) => {
      if (event.level === 'query') captured.push(event);
    },
  });
  return { logged, captured, close: () => logged.destroy() };
}
