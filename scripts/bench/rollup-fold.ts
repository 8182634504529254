/**
 * `npx tsx scripts/bench/rollup-fold.ts`: what folding a backlog into the hourly rollups costs
 * (src/analytics/scan-rollup.ts), in time and in CPU per 1,000 scans (PostgreSQL's processes and this one), for
 * backlogs of several shapes, one after the other on one database:
 *
 * - `scattered`: BENCH_FOLD_SCANS scans (default 200,000), each its own group and its own row in every rollup
 *   (random codes of BENCH_FOLD_CODES, default 100,000, in 100 accounts; a random hour of the last day, kind of
 *   phone, country, language, referrer): the worst case, what a backlog after an outage spread over many codes is;
 * - `again`: as many scans on the same codes, hours and audiences: every rollup row exists, so each is an update;
 * - `poster`: as many scans on one code over the last hour, a handful of kinds of phone and audiences, the
 *   analytics bench's (and the redirect bench's) shape: many scans per rollup row.
 *
 * Seeds with generate_series on a temporary embedded PostgreSQL, removed at the end. The fold runs alone here;
 * on a server it shares the cores with the redirects, so its CPU per scan is the number to watch.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { foldScans } from '../../src/analytics/scan-rollup.js';
import { openDatabase } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema/index.js';
import { CLOCK_TICKS_PER_SECOND, postgresTicksByKind } from './cpu-usage.js';

const SCANS = Number(process.env.BENCH_FOLD_SCANS ?? 200_000);
const CODES = Number(process.env.BENCH_FOLD_CODES ?? 100_000);
const ACCOUNTS = 100;
const SHAPES = ['scattered', 'again', 'poster'] as const;

async function main(): Promise<void> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-fold-'));
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger: pino({ level: 'warn' }), stopEmbedded: 'always' });
  try {
    const db = database.db;
    await seedCodes(db);
    console.log(`folds of ${SCANS.toLocaleString('en')} scans; CPU ms per 1,000 scans: PostgreSQL + this process; ${os.cpus().length} cores`);
    for (const shape of SHAPES) {
      await addBacklog(db, shape);
      await sql`analyze scan_groups`.execute(db);
      const ticks = await postgresTicks(dataDir);
      const cpu = process.cpuUsage();
      const started = performance.now();
      const folded = await foldScans(db);
      const ms = performance.now() - started;
      const postgresMs = ((await postgresTicks(dataDir)) - ticks) * (1000 / CLOCK_TICKS_PER_SECOND);
      const { user, system } = process.cpuUsage(cpu);
      const cpuMs = postgresMs + (user + system) / 1000;
      const rows = await rollupRows(db);
      console.log(
        `${shape.padEnd(10)} ${folded.scans.toLocaleString('en')} scans in ${(ms / 1000).toFixed(1)} s ` +
          `(${Math.round(folded.scans / (ms / 1000)).toLocaleString('en')} scans/s), CPU ${((cpuMs / folded.scans) * 1000).toFixed(1)} ms per 1,000; rollup rows now ${rows}`,
      );
    }
  } finally {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

async function seedCodes(db: Database): Promise<void> {
  await sql`insert into accounts (id, name, plan) select 'acc_fold' || lpad(a::text, 4, '0'), 'fold ' || a, 'business' from generate_series(1, ${ACCOUNTS}) a`.execute(db);
  // The per-row NOTIFY (for redirect caches) would cost most of the seeding time; nobody listens here.
  await sql`alter table qr_codes disable trigger qr_codes_notify_insert`.execute(db);
  await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
    select 'qr_fold' || lpad(g::text, 8, '0'), 'acc_fold' || lpad((1 + g % ${ACCOUNTS})::text, 4, '0'), 'Code ' || g,
           'F' || lpad(upper(to_hex(g)), 7, '0'), 'https://example.com/' || g, now() - interval '30 days', now()
    from generate_series(1, ${CODES}) g`.execute(db);
  await sql`alter table qr_codes enable trigger qr_codes_notify_insert`.execute(db);
  await sql`vacuum analyze qr_codes`.execute(db);
}

/** Scan groups above the watermark, each of one scan, in the shape asked for (see the top of the file). */
async function addBacklog(db: Database, shape: (typeof SHAPES)[number]): Promise<void> {
  const pick = (values: Array<string | null>, salt: number) =>
    sql`(${values}::text[])[1 + (hashint4(g + ${salt}) & 2147483647) % ${values.length}]`;
  const combo = pick(['mobile|iOS|Mobile Safari', 'mobile|Android|Chrome', 'mobile|Android|Samsung Browser', 'desktop|Windows|Chrome',
    'tablet|iOS|Mobile Safari', 'desktop|Mac OS|Safari', 'mobile|iOS|Chrome', 'unknown|unknown|unknown'], 6);
  const country = pick(['DE', 'DE', 'DE', 'AT', 'CH', 'US', 'GB', 'FR', 'NL', 'PL', 'IT', 'ES', 'IN', 'JP', 'BR', 'MX', 'CA', 'AU', 'SE', 'NO', null], 3);
  const language = pick(['de', 'en', 'en', 'tr', 'fr', 'nl', 'pl', 'it', 'es', 'ja', 'pt', 'sv', null], 4);
  const referrer = pick(['instagram.com', 'facebook.com', 't.co', null, null, null], 2);
  const code = shape === 'poster' ? sql`'qr_fold00000001'` : sql`'qr_fold' || lpad((1 + (hashint4(g) & 2147483647) % ${CODES})::text, 8, '0')`;
  const at = shape === 'poster'
    ? sql`now() - interval '1 hour' + g * (interval '1 hour' / ${SCANS})`
    // The same g, so `again` finds `scattered`'s hours (a few seconds later: the same hour but at its edges).
    : sql`date_trunc('hour', now()) - interval '23 hours' + interval '1 hour' * ((hashint4(g + 1) & 2147483647) % 23) + interval '30 minutes'`;
  await sql`
    insert into scan_groups (qr_code_id, first_at, times, device, os, browser, destination_url, referrer_host, country, region, city, language, is_unique)
    select ${code}, ${at}, null, split_part(c, '|', 1), split_part(c, '|', 2), split_part(c, '|', 3), 'https://example.com/',
           ${referrer}, ${country}, null, null, ${language}, (hashint4(g + 5) & 1) = 0
    from generate_series(1, ${SCANS}) g cross join lateral (select ${combo} as c) combos`.execute(db);
}

async function postgresTicks(dataDir: string): Promise<number> {
  return [...(await postgresTicksByKind(dataDir)).values()].reduce((a, b) => a + b, 0);
}

async function rollupRows(db: Database): Promise<string> {
  const { rows } = await sql<{ a: number; b: number; c: number; d: number }>`
    select (select count(*) from scan_hourly)::int as a, (select count(*) from account_scan_hourly)::int as b,
           (select count(*) from scan_hourly_audience)::int as c, (select count(*) from account_scan_hourly_audience)::int as d`.execute(db);
  const { a, b, c, d } = rows[0]!;
  return `${a.toLocaleString('en')} / ${b.toLocaleString('en')} by kind of phone (code / account), ${c.toLocaleString('en')} / ${d.toLocaleString('en')} by every dimension`;
}

await main();
