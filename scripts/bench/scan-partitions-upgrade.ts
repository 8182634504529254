/**
 * `npx tsx scripts/bench/scan-partitions-upgrade.ts`: how long the upgrade to monthly scan partitions
 * (src/db/migrations/20261127T0600-monthly-scan-partitions.ts) makes scan writes wait, per million stored scans
 * (docs/operating/upgrading.md quotes it).
 *
 * On a temporary embedded PostgreSQL (removed at the end): migrates to the migration before, stores
 * BENCH_UPGRADE_SCANS scans (default 1,000,000) as the redirect packs them (mostly groups of one, some of two to
 * four scans of one second; 200 codes of 10 accounts; spread over the last year), then runs the migration while
 * another connection writes a group of one every 20 ms, one at a time, as an instance of the previous version
 * would, and reports the longest such write (the wait) beside the migration's own time.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../src/db/connect.js';
import { createDatabase, NO_STATEMENT_TIMEOUTS } from '../../src/db/database.js';
import { migrationProvider } from '../../src/db/migrations/index.js';

const SCANS = Number(process.env.BENCH_UPGRADE_SCANS ?? 1_000_000);
const CODES = 200;
const ACCOUNTS = 10;
const WRITE_EVERY_MS = 20;
const BEFORE = '20261127T0300-code-routing';

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-partitions-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger: pino({ level: 'warn' }), stopEmbedded: 'always' });
  try {
    // As the service migrates: one connection, no statement timeout (the seeding is long too).
    const db = createDatabase(database.connectionString, { logger: pino({ level: 'warn' }), maxConnections: 1, timeouts: NO_STATEMENT_TIMEOUTS });
    const migrator = new Migrator({ db, provider: migrationProvider });
    const down = await migrator.migrateTo(BEFORE);
    if (down.error) throw down.error;

    await sql`insert into accounts (id, name, plan) select 'acc_up' || a, 'upgrade ' || a, 'business' from generate_series(1, ${ACCOUNTS}) a`.execute(db);
    await sql`alter table qr_codes disable trigger qr_codes_notify_insert`.execute(db);
    await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
      select 'qr_up' || lpad(g::text, 6, '0'), 'acc_up' || (1 + g % ${ACCOUNTS}), 'Code ' || g, 'U' || lpad(upper(to_hex(g)), 7, '0'),
             'https://example.com/' || g, now() - interval '400 days', now()
      from generate_series(1, ${CODES}) g`.execute(db);
    await sql`alter table qr_codes enable trigger qr_codes_notify_insert`.execute(db);

    // 85 % groups of one scan, 15 % of two to four (1.3 scans a group on average), in time order over a year.
    const groups = Math.round(SCANS / 1.3);
    const seeded = performance.now();
    await sql`
      insert into scan_groups (qr_code_id, first_at, times, device, os, browser, destination_url, referrer_host, country, language, is_unique)
      select 'qr_up' || lpad((1 + (hashint4(g) & 2147483647) % ${CODES})::text, 6, '0'), at,
             case when size = 1 then null else array(select at + make_interval(secs => i / 1000.0) from generate_series(0, size - 1) i) end,
             'mobile', 'iOS', 'Mobile Safari', 'https://example.com/', case when g % 5 = 0 then 'instagram.com' end, 'DE', 'de', g % 3 = 0
      from generate_series(1, ${groups}) g
      cross join lateral (select date_trunc('second', now() - interval '365 days' + (interval '365 days' * g / ${groups})) as at,
                                 case when (hashint4(g + 1) & 2147483647) % 100 < 85 then 1 else 2 + (hashint4(g + 2) & 2147483647) % 3 end as size) s`.execute(db);
    await sql`update scan_rollup_state set folded_through_id = (select max(id) from scan_groups)`.execute(db);
    await sql`vacuum analyze scan_groups`.execute(db);
    const { rows: [stored] } = await sql<{ scans: string; groups: string }>`
      select sum(coalesce(cardinality(times), 1))::text as scans, count(*)::text as groups from scan_groups`.execute(db);
    const scans = Number(stored!.scans);
    console.log(`${scans.toLocaleString('en')} scans in ${Number(stored!.groups).toLocaleString('en')} groups stored in ${((performance.now() - seeded) / 1000).toFixed(1)} s; ${os.cpus().length} cores`);

    const writer = new pg.Client({ connectionString: database.connectionString });
    await writer.connect();
    const waits: number[] = [];
    let writing = true;
    const writes = (async () => {
      while (writing) {
        const started = performance.now();
        await writer.query(`insert into scan_groups (qr_code_id, first_at, device, os, browser, destination_url)
          values ('qr_up000001', now(), 'mobile', 'iOS', 'Mobile Safari', 'https://example.com/')`);
        waits.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, WRITE_EVERY_MS));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const started = performance.now();
    const up = await migrator.migrateToLatest();
    const migrationMs = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 200));
    writing = false;
    await writes;
    await writer.end();
    if (up.error) throw up.error;

    const longest = Math.max(...waits);
    const perMillion = (ms: number) => (ms / 1000 / (scans / 1_000_000)).toFixed(1);
    console.log(`migration ${(migrationMs / 1000).toFixed(1)} s (${perMillion(migrationMs)} s per million scans)`);
    console.log(`longest scan write during it ${(longest / 1000).toFixed(1)} s (${perMillion(longest)} s per million scans); ${waits.length} writes`);
    const { rows: parts } = await sql<{ partitions: number }>`
      select count(*)::int as partitions from pg_inherits where inhparent = 'scan_groups'::regclass`.execute(db);
    console.log(`${parts[0]!.partitions} partitions`);
    await db.destroy();
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

await main();
