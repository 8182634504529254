/**
 * `npx tsx scripts/bench/frozen-lookup.ts`: how long a redirect of a cached code takes while PostgreSQL is frozen
 * (SIGSTOP of the postmaster and every backend: connections accepted, never answered), with the service built as
 * `npm start` builds it and the production settings (10 s cache TTL, 1.5 s lookup timeout, default pool timeouts,
 * the scan journal on). One client scans one code in a loop, FREEZE_SECONDS long (default 20); reported: the median
 * and the slowest redirect in the first 10 s of the freeze (cache entries still fresh) and after (they expired: each
 * scan asks the database), how many waited over a second (the first scan waits for the scan recorder's commit
 * timeout, 2 s; the first lookup after the entry expired, a little before the 10 s mark, for the lookup timeout),
 * and how many answered 302.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { startBenchServer } from './bench-server.js';
import { cleanUpWhenInterrupted } from './processes.js';

const execFile = promisify(execFileCallback);
/** The cache TTL of src/redirect/index.ts: until then a scan is answered from a fresh entry, database or not. */
const TTL_MS = 10_000;

const freezeSeconds = Number(process.env.FREEZE_SECONDS ?? 20);
const logger = pino({ level: 'silent' });
const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-frozen-'));
const postgres = await startEmbeddedPostgres(dataDir, logger);
let frozen: number[] = [];
const thaw = () => {
  for (const pid of frozen) process.kill(pid, 'SIGCONT');
  frozen = [];
};
const cleanUp = cleanUpWhenInterrupted(async () => {
  thaw();
  await postgres.stop();
  await fs.rm(dataDir, { recursive: true, force: true });
});
try {
  const db = createDatabase(postgres.localConnectionString(), { logger });
  await migrateToLatest(db, logger);
  // With the scan journal on, as in production: scans answered without a commit are journaled before their 302.
  const service = await startBenchServer({ db, connectionString: postgres.localConnectionString() }, { tempDir: dataDir, logger });
  const account = await createAccount(db, { name: 'bench', plan: 'business' });
  const maker = await createApiKey(db, account.id);
  const { code } = await createQrCode(db, { accountId: account.id, name: 'frozen poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
  const url = `${service.origin}/r/${code.slug}`;
  await fetch(url, { redirect: 'manual' }); // cached

  const postmaster = Number((await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const { stdout } = await execFile('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
  frozen = [postmaster, ...stdout.split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0)];
  for (const pid of frozen) process.kill(pid, 'SIGSTOP');
  const frozenAt = performance.now();
  const fresh: number[] = [];
  const expired: number[] = [];
  let redirected = 0;
  while (performance.now() - frozenAt < freezeSeconds * 1000) {
    const started = performance.now();
    const response = await fetch(url, { redirect: 'manual' });
    await response.arrayBuffer();
    if (response.status === 302) redirected++;
    (started - frozenAt < TTL_MS ? fresh : expired).push(performance.now() - started);
  }
  thaw();
  const stats = (ms: number[]) => {
    const sorted = [...ms].sort((a, b) => a - b);
    return `${sorted.length} scans, median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms, slowest ${sorted.at(-1)?.toFixed(1)} ms`;
  };
  console.log(`PostgreSQL frozen for ${freezeSeconds} s, one client scanning one cached code:`);
  console.log(`  first ${TTL_MS / 1000} s (cache fresh): ${stats(fresh)}`);
  console.log(`  after (cache expired):  ${stats(expired)}`);
  console.log(`  waited over 1 s: ${[...fresh, ...expired].filter((ms) => ms > 1_000).length}`);
  console.log(`  answered 302: ${redirected} of ${fresh.length + expired.length}`);
  await service.stop(5_000);
  await db.destroy();
} finally {
  await cleanUp();
}
