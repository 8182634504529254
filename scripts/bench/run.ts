/**
 * `npm run bench`: the redirect hot path against the physical limit of this machine, side by side.
 *
 * Builds qroute, starts it on the embedded PostgreSQL with one code, and a bare node:http server answering
 * every request with a 302. A separate load-generator process (autocannon) loads them alternately at 10 and
 * 100 connections with mobile user agents, several rounds each. Prints req/s, p50/p99 latency, the ratio
 * qroute ÷ bare per round and its median, and whether every 302 qroute sent has its scan in the database.
 * Ratios, not absolute numbers, are the result: the machine is shared and noisy.
 *
 * Then the webhook part (see webhooks.ts): scan → receiver latency under steady load, and deliveries per second
 * against got alone.
 *
 * Then the outage part (see outage.ts): PostgreSQL stopped under a steady load, and how long scans live only in memory.
 *
 * `webhook-crash` (not run by default, see webhook-crash.ts): webhook ids sent twice across a PostgreSQL crash
 * (`pg_ctl stop -m immediate`) under BENCH_CRASH_RATE scans/s (default 300), BENCH_CRASH_SECONDS down (default 10).
 *
 * `image-flood` (not run by default, see image-flood.ts): redirect latency alone and while one client loops on
 * 4096-pixel PNGs.
 *
 * `analytics` (not run by default, see analytics.ts): the dashboard's analytics queries at 10M scans on one code and
 * 1M codes in one account (seeding takes minutes; BENCH_ANALYTICS_SCANS, BENCH_ANALYTICS_CODES, BENCH_ANALYTICS_RUNS).
 *
 * `import` (not run by default, see import.ts): a 10,000-row file of mixed types, dry run, import at several batch
 * sizes and export (test/integration/import.test.ts checks 2,000 rows).
 *
 * `redirect-routing` (not run by default, see redirect-routing.ts): a code with 20 routing rules (the last matching)
 * beside a plain code and the bare server, each as a ratio to bare (BENCH_CONNECTIONS, BENCH_ROUNDS, BENCH_SECONDS).
 *
 * `cluster` (not run by default, see cluster.ts): the topology of `npm run cluster` (primary, replica, PgBouncer in
 * transaction mode, three instances, two workers) in a temporary directory; redirects/s of three instances against one
 * at the largest of BENCH_CONNECTIONS, every 302 with its scan and every scan with its webhook, PgBouncer's pools,
 * CPU and WAL per scan.
 *
 * `design-decode` (not run by default, see design-decode.ts): every designed QR code at every text and width decoded
 * with jsQR and ZXing, 1,116 decodes (test/integration/qr-design-decode.test.ts decodes a sample of 31); exits 1 on
 * a code that does not decode.
 *
 * Env: BENCH_ROUNDS (default 3), BENCH_SECONDS per run (default 5), BENCH_CONNECTIONS (default `10,100`),
 * BENCH_CODES (default 1: every scan of one poster; more spreads the redirect load evenly over that many codes),
 * BENCH_PARTS (default `redirect,webhooks,outage`),
 * BENCH_OUTAGE_RATE (scans/s, default 2000), BENCH_OUTAGE_SECONDS (default 10), BENCH_WEBHOOK_SECONDS (paced webhook
 * latency run, default 60). SCAN_WRITE_CONCURRENCY and the server's other settings pass through to qroute.
 *
 * `npm run bench:profile` (scripts/bench/profile.ts) shows where one scan's time goes, in node and in PostgreSQL.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { openDatabase } from '../../src/db/connect.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { benchAnalytics } from './analytics.js';
import { benchCluster } from './cluster.js';
import { benchDesignDecode } from './design-decode.js';
import { benchImageFlood } from './image-flood.js';
import { benchImport } from './import.js';
import { benchOutage } from './outage.js';
import { benchRedirectRouting } from './redirect-routing.js';
import { benchWebhookCrash } from './webhook-crash.js';
import { benchWebhooks } from './webhooks.js';
import { cleanUpWhenInterrupted, fmt, killAll, load, type LoadResult, median, startBareAndQroute, stop } from './processes.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** BENCH_CONNECTIONS: the connection counts to load the redirect with, comma-separated (default 10,100). */
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,100').split(',').map(Number);
/** BENCH_CODES: how many codes the redirect load is spread over, at random (default 1, at most 1,000). */
const CODES = Number(process.env.BENCH_CODES ?? 1);
/**
 * `redirect`, `redirect-routing`, `webhooks`, `outage`, `webhook-crash`, `image-flood`, `analytics`, `import`, `design-decode`, `cluster`,
 * comma-separated; the default is `redirect,webhooks,outage`.
 */
const PARTS = new Set((process.env.BENCH_PARTS ?? 'redirect,webhooks,outage').split(','));


async function main() {
  console.log('building…');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-'));
  const logger = pino({ level: 'warn' });
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger, stopEmbedded: 'always' });
  const cleanUp = cleanUpWhenInterrupted(async () => {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  try {
    const account = await createAccount(database.db, { name: 'bench', plan: 'business' });
    // Codes are made by someone: here by a key, as if through the API (the history records it).
    const maker = await createApiKey(database.db, account.id);
    const { code } = await createQrCode(database.db, {
      accountId: account.id,
      name: 'bench poster',
      destinationUrl: 'https://example.com/destination',
      actor: { kind: 'api_key', apiKeyId: maker.id },
    });

    if (PARTS.has('redirect')) {
      const { bare, barePort, qroute, qroutePort } = await startBareAndQroute(database.connectionString);

      const codes = [code];
      for (let i = 1; i < CODES; i++) {
        const made = await createQrCode(database.db, {
          accountId: account.id,
          name: `bench poster ${i + 1}`,
          destinationUrl: `https://example.com/destination/${i + 1}`,
          actor: { kind: 'api_key', apiKeyId: maker.id },
        });
        codes.push(made.code);
      }
      // Both servers get the same paths, so the load generator does the same work for each.
      const targets = {
        bare: codes.map((c) => `http://127.0.0.1:${barePort}/r/${c.slug}`),
        qroute: codes.map((c) => `http://127.0.0.1:${qroutePort}/r/${c.slug}`),
      };
      let redirectsSent = 0;
      const summary: string[] = [];
      console.log(`\n${ROUNDS} rounds × ${SECONDS} s per server and connection count, ${CODES} code${CODES > 1 ? 's' : ''}; CPU: ${os.cpus().length} cores\n`);
      console.log('conns round  bare req/s  p50/p99 ms | qroute req/s  p50/p99 ms | ratio');
      for (const connections of CONNECTIONS) {
        const ratios: number[] = [];
        for (let round = 1; round <= ROUNDS; round++) {
          // Alternate which goes first, so warm-up and background noise do not favour one side.
          const order = round % 2 ? (['bare', 'qroute'] as const) : (['qroute', 'bare'] as const);
          const results: Partial<Record<'bare' | 'qroute', LoadResult>> = {};
          for (const name of order) results[name] = await load(targets[name], connections, SECONDS);
          const b = results.bare!;
          const q = results.qroute!;
          redirectsSent += q.statusCounts['302'] ?? 0;
          const ratio = q.requestsPerSecond / b.requestsPerSecond;
          ratios.push(ratio);
          console.log(
            `${String(connections).padStart(5)} ${String(round).padStart(5)}  ${fmt(b.requestsPerSecond, 10)}  ${`${b.p50}/${b.p99}`.padStart(10)} |` +
              ` ${fmt(q.requestsPerSecond, 12)}  ${`${q.p50}/${q.p99}`.padStart(10)} | ${ratio.toFixed(3)}` +
              (q.errors || Object.keys(q.statusCounts).some((s) => s !== '302') ? `  (qroute non-302: ${JSON.stringify(q.statusCounts)}, errors ${q.errors})` : ''),
          );
        }
        summary.push(`median ratio qroute ÷ bare at ${connections} connections: ${median(ratios).toFixed(3)}`);
      }

      // Stop qroute gracefully (it writes any scans still in memory), then compare.
      await stop(qroute);
      await stop(bare);
      const counts = { scans: 0, botScans: 0 };
      for (const c of codes) {
        const { scans, botScans } = await scanCountsOf(database.db, c.id);
        counts.scans += scans;
        counts.botScans += botScans;
      }
      const rows = await database.db
        .selectFrom('scans')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('qr_code_id', 'in', codes.map((c) => c.id))
        .executeTakeFirstOrThrow();
      console.log(`\n${summary.join('\n')}`);
      // The load generator stops with requests in flight: the server may have recorded those scans and sent
      // their 302s after the generator stopped listening, so up to `connections` scans per run can be extra.
      const maxInFlight = CONNECTIONS.reduce((sum, c) => sum + c * ROUNDS, 0);
      const extra = counts.scans - redirectsSent;
      const durable = extra >= 0 && extra <= maxInFlight && Number(rows.n) === counts.scans;
      console.log(`302s received from qroute: ${redirectsSent}; scans recorded: ${counts.scans} (rows ${rows.n}, bots ${counts.botScans})`);
      console.log(`every 302 received has its scan: ${durable ? 'yes' : 'NO'} (${extra} scans for requests in flight when the load generator stopped; at most ${maxInFlight})`);
      if (!durable) process.exitCode = 1;
    }
    if (PARTS.has('redirect-routing')) {
      const lines = await benchRedirectRouting(database, { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS });
      console.log(lines.join('\n'));
    }
    if (PARTS.has('webhooks')) {
      const lines = await benchWebhooks(database, { rounds: ROUNDS, seconds: SECONDS });
      console.log(`\n${lines.join('\n')}`);
    }
    if (PARTS.has('image-flood')) {
      const lines = await benchImageFlood(database, { rounds: ROUNDS, seconds: SECONDS });
      console.log(lines.join('\n'));
    }
    if (PARTS.has('outage')) {
      const lines = await benchOutage({ rate: Number(process.env.BENCH_OUTAGE_RATE ?? 2_000), outageSeconds: Number(process.env.BENCH_OUTAGE_SECONDS ?? 10) });
      console.log(`\n${lines.join('\n')}`);
    }
    if (PARTS.has('webhook-crash')) {
      const lines = await benchWebhookCrash({ rate: Number(process.env.BENCH_CRASH_RATE ?? 300), downSeconds: Number(process.env.BENCH_CRASH_SECONDS ?? 10) });
      console.log(`\n${lines.join('\n')}`);
    }
    if (PARTS.has('cluster')) {
      const { lines, ok } = await benchCluster({ rounds: ROUNDS, seconds: SECONDS, connections: Math.max(...CONNECTIONS) });
      console.log(lines.join('\n'));
      if (!ok) process.exitCode = 1;
    }
    if (PARTS.has('import')) {
      const lines = await benchImport(database);
      console.log(`\n${lines.join('\n')}`);
    }
    if (PARTS.has('design-decode')) {
      const { lines, ok } = await benchDesignDecode();
      console.log(`\n${lines.join('\n')}`);
      if (!ok) process.exitCode = 1;
    }
    // Last: its tables of millions of rows would slow the other parts down.
    if (PARTS.has('analytics')) await benchAnalytics(database);
  } finally {
    killAll();
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  killAll();
  console.error(error);
  process.exit(1);
});
