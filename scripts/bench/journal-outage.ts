/**
 * `npx tsx scripts/bench/journal-outage.ts`: redirects a second while PostgreSQL is down, with the scan journal
 * (every scan answered without a commit is appended and fsync'd first, in groups) and without it (kept in memory
 * only). Runs qroute's app in this process against an embedded PostgreSQL of its own, with the journal in that
 * directory (on the disk the data would be on; /tmp here is ext4). Each round: PostgreSQL up, a fresh instance,
 * the code cached, PostgreSQL stopped (`pg_ctl stop -m fast`), JOURNAL_BENCH_SECONDS (default 5) of load at
 * full speed from autocannon in another process with JOURNAL_BENCH_CONNECTIONS (default 10,100) connections,
 * PostgreSQL started, everything written. Rounds go off-on-on-off so a machine getting slower or faster during
 * the run favours neither. Prints requests per second, p50/p99 latency, statuses and whether every 302 has its
 * scan. Without the journal, scans past SCAN_MEMORY_LIMIT (100,000) are dropped and counted; with it they stay in
 * the journal.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { startBenchServer } from './bench-server.js';
import { cleanUpWhenInterrupted, fmt, load } from './processes.js';

const SECONDS = Number(process.env.JOURNAL_BENCH_SECONDS ?? 5);
const CONNECTIONS = (process.env.JOURNAL_BENCH_CONNECTIONS ?? '10,100').split(',').map(Number);

async function main(): Promise<void> {
  const logger = pino({ level: 'silent' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-journal-'));
  let postgres = await startEmbeddedPostgres(dataDir, logger);
  const cleanUp = cleanUpWhenInterrupted(async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const db = createDatabase(postgres.localConnectionString(), { logger });
  try {
    await migrateToLatest(db, logger);
    const account = await createAccount(db, { name: 'bench', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'journal poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    console.log(`redirects during a PostgreSQL outage (stopped), ${SECONDS} s per round, full speed:`);
    console.log(`journal  connections     req/s   p50 ms   p99 ms  statuses                 journaled  every 302 recorded`);
    for (const connections of CONNECTIONS) {
      for (const journalOn of [false, true, true, false]) {
        // Off is SCAN_JOURNAL_MAX_MB=0. On, 1 GB as always here (the default is 256 MB): far above what a round
        // journals, so a round measures the journal's cost, never a full journal.
        const service = await startBenchServer(
          { db, connectionString: postgres.localConnectionString() },
          { tempDir: dataDir, journalMaxBytes: journalOn ? 1024 ** 3 : 0, logger },
        );
        const { redirect } = service;
        const before = (await scanCountsOf(db, code.id)).scans;
        try {
          const url = `${service.origin}/r/${code.slug}`;
          if ((await fetch(url, { redirect: 'manual' })).status !== 302) throw new Error('the code did not redirect before the outage');
          await postgres.stop();
          const result = await load(url, connections, SECONDS);
          postgres = await startEmbeddedPostgres(dataDir, logger);
          await redirect.recorder.stop(60_000);
          const recorded = (await scanCountsOf(db, code.id)).scans - before;
          const answered = result.statusCounts['302'] ?? 0;
          const journaled = redirect.recorder.journalStats?.journaledScans ?? 0;
          console.log(
            `${journalOn ? 'on ' : 'off'}      ${fmt(connections, 11)} ${fmt(result.requestsPerSecond, 9)} ${fmt(result.p50, 8)} ${fmt(result.p99, 8)}  ` +
              `${JSON.stringify(result.statusCounts).padEnd(24)} ${fmt(journaled, 9)}  ${recorded >= answered ? 'yes' : 'NO'} (${answered} answered, ${recorded} recorded, ` +
              `${redirect.recorder.stats.dropped} dropped past SCAN_MEMORY_LIMIT)`,
          );
        } finally {
          await service.stop(1_000);
        }
      }
    }
  } finally {
    await db.destroy();
    await cleanUp();
  }
}

await main();
