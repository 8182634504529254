/**
 * `BENCH_PARTS=outage npm run bench`: what a PostgreSQL outage does to redirects and how long answered scans live
 * only in memory. Runs qroute in this process (to read its recorder), built as `npm start` builds it but with the
 * scan journal off, against an embedded PostgreSQL of its own,
 * under a steady scan load from autocannon in another process; stops PostgreSQL (`pg_ctl stop -m fast`) for
 * OUTAGE_SECONDS, starts it again, and reports:
 *   - the status of every request during the run (all must be 302),
 *   - the most scans held in memory, and how long after the restart new scans were committed before their 302
 *     again ("live") and the memory was empty,
 *   - whether every 302 has its scan (lost must be 0).
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
import { load } from './processes.js';

export async function benchOutage(options: { rate: number; outageSeconds: number }): Promise<string[]> {
  const logger = pino({ level: 'silent' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-outage-'));
  let postgres = await startEmbeddedPostgres(dataDir, logger);
  const db = createDatabase(postgres.localConnectionString(), { logger });
  await migrateToLatest(db, logger);
  // The journal off (SCAN_JOURNAL_MAX_MB=0): what this measures is how many scans the outage leaves in memory only.
  const service = await startBenchServer({ db, connectionString: postgres.localConnectionString() }, { tempDir: dataDir, journalMaxBytes: 0, logger });
  const { redirect } = service;
  try {
    const account = await createAccount(db, { name: 'bench', plan: 'business' });
    // Codes are made by someone: here by a key, as if through the API (the history records it).
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'outage poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    const before = 3;
    const after = 12;
    const seconds = before + options.outageSeconds + after;
    const running = load(`${service.origin}/r/${code.slug}`, 50, seconds, options.rate);

    let peakInMemory = 0;
    const sampler = setInterval(() => (peakInMemory = Math.max(peakInMemory, redirect.recorder.backlog)), 10);
    await sleep(before * 1000);
    await postgres.stop();
    await sleep(options.outageSeconds * 1000);
    postgres = await startEmbeddedPostgres(dataDir, logger);
    const restartedAt = performance.now();
    let liveAfterMs = NaN;
    let emptyAfterMs = NaN;
    while (Number.isNaN(emptyAfterMs) && performance.now() - restartedAt < after * 1000) {
      if (Number.isNaN(liveAfterMs) && redirect.recorder.isLive) liveAfterMs = performance.now() - restartedAt;
      if (redirect.recorder.backlog === 0 && redirect.recorder.isLive) emptyAfterMs = performance.now() - restartedAt;
      await sleep(5);
    }
    const result = await running;
    clearInterval(sampler);
    await redirect.recorder.stop(30_000);
    const counted = (await scanCountsOf(db, code.id)).scans;
    const answered = result.statusCounts['302'] ?? 0;
    return [
      `outage of ${options.outageSeconds} s under ${options.rate} scans/s (${seconds} s of load):`,
      `  statuses: ${JSON.stringify(result.statusCounts)}, connection errors ${result.errors}; p50/p99 ${result.p50}/${result.p99} ms`,
      `  most scans held in memory: ${peakInMemory}`,
      `  after the restart: new scans committed before their 302 after ${liveAfterMs.toFixed(0)} ms; memory empty after ${emptyAfterMs.toFixed(0)} ms`,
      `  302s answered ${answered}, scans recorded ${counted} (the load generator may stop with up to 50 in flight), dropped ${redirect.recorder.stats.dropped}`,
      `  every 302 has its scan: ${counted >= answered && redirect.recorder.stats.dropped === 0 ? 'yes' : 'NO'}`,
    ];
  } finally {
    await service.stop(1_000);
    await db.destroy();
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
