/**
 * `BENCH_PARTS=webhook-crash npm run bench`: what a PostgreSQL crash does to webhook deliveries. qroute's redirect
 * runs in this process (no worker) against an embedded PostgreSQL of its own; one standalone worker (`src/worker.ts`,
 * its own process) delivers to a receiver here that counts every `webhook-id`. PostgreSQL is stopped with
 * `pg_ctl stop -m immediate` (a crash: no checkpoint, recovery at the next start) for BENCH_CRASH_SECONDS (default
 * 10), then started again, twice:
 *   1. under a steady scan load from autocannon (BENCH_CRASH_RATE scans/s, default 300), 8 s into it: the scan
 *      path's synchronous commits flush the WAL every few milliseconds, the worker's commits with them;
 *   2. while the worker drains a backlog (3 s of scans at full speed, queued while it was paused) with no scans
 *      coming, once 500 have arrived: only the worker's own commits reach the WAL, as after an outage.
 * Each reports, once every delivery is done (a lease, 30 s, may have to run out first):
 *   - webhook ids received more than once, split by when the second request came: within 20 s of the restart
 *     (a claim the crash forgot, made and sent again) or later (an outcome the crash forgot, or never recorded,
 *     sent again when its lease ran out);
 *   - the deliveries in flight at the crash: rows the recovered database shows held by a claim. The worker is
 *     paused (SIGSTOP) across the restart so they are counted before it records anything. With synchronous commit
 *     that is exactly what the worker had claimed and not yet recorded; with asynchronous commit it also counts
 *     outcomes the crash forgot;
 *   - forgotten claims: ids received before the restart whose row the recovered database shows neither claimed nor
 *     finished (the worker claims and sends them again);
 *   - the worker's log lines "could not be recorded", and those with 23505.
 * Every delivery must arrive; duplicates must not exceed the deliveries in flight.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { placeEmbeddedPostgres } from '../../src/db/embedded-postgres-location.js';
import { run } from '../../src/db/embedded-postgres-process.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { startBenchServer } from './bench-server.js';
import { load } from './processes.js';

export async function benchWebhookCrash(options: { rate: number; downSeconds: number }): Promise<string[]> {
  const logger = pino({ level: 'silent' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-webhook-crash-'));
  let postgres = await startEmbeddedPostgres(dataDir, logger);
  const db = createDatabase(postgres.localConnectionString(), { logger });
  await migrateToLatest(db, logger);
  const key = randomBytes(32);
  const box = new SecretBox(key);
  // No webhook worker in this process: the standalone one below is the only one delivering. The scan journal off, as
  // before: the scans answered during a crash (a few thousand) wait in memory and reach the database, with their
  // deliveries, either way; what the journal does across an outage is journal-outage.ts's to measure.
  const service = await startBenchServer({ db, connectionString: postgres.localConnectionString() }, { tempDir: dataDir, journalMaxBytes: 0, logger, webhookWorker: false, box });
  const { redirect } = service;
  const receiver = await startCountingReceiver();
  let workerOutput = '';
  const worker = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      DATABASE_URL: postgres.connectionString(),
      WEBHOOK_SECRET_KEY: key.toString('base64'),
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => (workerOutput += chunk.toString());
  worker.stdout.on('data', keep);
  worker.stderr.on('data', keep);
  try {
    const account = await createAccount(db, { name: 'bench', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'crash poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    await setWebhook(db, box, { accountId: account.id, url: receiver.url, allowPrivate: true });
    for (const deadline = Date.now() + 60_000; !workerOutput.includes('qroute webhook worker is running'); ) {
      if (Date.now() > deadline || worker.exitCode !== null) throw new Error(`the worker did not start:\n${workerOutput}`);
      await sleep(50);
    }
    const pending = async () => Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(db)).rows[0]!.n);
    const target = `${service.origin}/r/${code.slug}`;

    /** Crashes PostgreSQL now, restarts it after `downSeconds`, and counts once every delivery is done. */
    const crashAndCount = async (label: string, roundStart: Date, loading: Promise<unknown>): Promise<string[]> => {
      const logStart = workerOutput.length;
      const receivedAtCrash = receiver.count();
      await stopImmediately(dataDir);
      await sleep(options.downSeconds * 1000);
      // Paused across the restart, so the recovered state is read before the worker records anything. Every request
      // received by then was claimed before the crash (no claim can be made while the database is down).
      worker.kill('SIGSTOP');
      const receivedBeforeRestart = new Set(receiver.ids());
      postgres = await startEmbeddedPostgres(dataDir, logger);
      const restartedAt = Date.now();
      const recovered = await sql<{ id: string; status: string; claimed_by: string | null }>`
        select id, status, claimed_by from webhook_deliveries where created_at >= ${roundStart}`.execute(db);
      worker.kill('SIGCONT');
      const inFlight = recovered.rows.filter((row) => row.status === 'pending' && row.claimed_by !== null).length;
      const forgotten = recovered.rows.filter((row) => row.status === 'pending' && row.claimed_by === null && receivedBeforeRestart.has(row.id)).length;
      await loading;
      // Until every delivery has arrived and its outcome is recorded; a lease (30 s) may have to run out first.
      const deadline = Date.now() + 120_000;
      while ((redirect.recorder.backlog > 0 || (await pending()) > 0) && Date.now() < deadline) await sleep(250);
      const deliveries = Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where created_at >= ${roundStart}`.execute(db)).rows[0]!.n);
      const unique = receiver.unique();
      const repeated = receiver.repeated();
      const unrecorded = workerOutput.slice(logStart).split('\n').filter((line) => line.includes('could not be recorded'));
      return [
        `${label}, pg_ctl stop -m immediate, ${options.downSeconds} s down:`,
        `  deliveries ${deliveries}, still pending ${await pending()}; received ${receiver.count()} requests (${receivedAtCrash} before the crash), ${unique} ids; every delivery arrived: ${unique === deliveries ? 'yes' : 'NO'}`,
        `  ids received more than once: ${repeated.length} (extra requests ${receiver.count() - unique}); sent again within 20 s of the restart ` +
          `${repeated.filter(({ times }) => times[1]! - restartedAt < 20_000).length}, later (a lease ran out) ${repeated.filter(({ times }) => times[1]! - restartedAt >= 20_000).length}`,
        `  in flight at the crash (held by a claim in the recovered database): ${inFlight}; forgotten claims (received, neither claimed nor finished): ${forgotten}`,
        `  worker log: "could not be recorded" ${unrecorded.length}, of which 23505 ${unrecorded.filter((line) => line.includes('23505')).length}`,
        `  duplicates within the deliveries in flight: ${repeated.length <= inFlight ? 'yes' : 'NO'}`,
      ];
    };
    const now = async () => (await sql<{ now: Date }>`select now()`.execute(db)).rows[0]!.now;

    // 1. The crash under a steady scan load (the scan path's synchronous commits flush the WAL every few ms).
    const before = 8;
    const after = 10;
    let roundStart = await now();
    const steady = load(target, 50, before + options.downSeconds + after, options.rate);
    await sleep(before * 1000);
    const lines = await crashAndCount(`under ${options.rate} scans/s`, roundStart, steady);

    // 2. The crash while the worker drains a backlog (as after an outage) with no scans coming: nothing but the
    // worker's own commits reaches the WAL.
    receiver.reset();
    roundStart = await now();
    worker.kill('SIGSTOP');
    await load(target, 50, 3);
    while (redirect.recorder.backlog > 0) await sleep(50);
    const backlog = await pending();
    worker.kill('SIGCONT');
    while (receiver.count() < 500) await sleep(5);
    lines.push(...(await crashAndCount(`while draining a backlog of ${backlog}`, roundStart, Promise.resolve())));

    await redirect.recorder.stop(30_000);
    return [`webhooks across a PostgreSQL crash, one standalone worker:`, ...lines];
  } finally {
    worker.kill('SIGCONT');
    worker.kill('SIGKILL');
    await receiver.close();
    await service.stop(1_000);
    await db.destroy();
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

/** `pg_ctl stop -m immediate`: every server process quits at once, without a checkpoint; the next start recovers. */
async function stopImmediately(dataDir: string): Promise<void> {
  const { binaries, runAs, pgData } = await placeEmbeddedPostgres(dataDir);
  await run(binaries.pg_ctl, ['stop', '-w', '-m', 'immediate', '-D', pgData], runAs);
}

/** Answers 204 at once and counts every request by its `webhook-id`. */
async function startCountingReceiver() {
  /** Arrival times (ms) of each id's requests. */
  const received = new Map<string, number[]>();
  let count = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      const id = String(req.headers['webhook-id']);
      received.set(id, [...(received.get(id) ?? []), Date.now()]);
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    count: () => count,
    ids: () => [...received.keys()],
    unique: () => received.size,
    reset: () => {
      received.clear();
      count = 0;
    },
    repeated: () => [...received].filter(([, times]) => times.length > 1).map(([id, times]) => ({ id, times })),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
