/**
 * The webhook half of `npm run bench`.
 *
 * Latency: qroute (worker in-process, as by default) under a steady scan load; a receiver on loopback measures,
 * for every POST, the time from the scan (the payload's `createdAt`, stamped when the redirect handled the
 * request) to its arrival. Reported as p50/p99/max per load level.
 *
 * Throughput: with the outbox filled while no worker runs, a standalone worker (`dist/src/worker.js`) drains it
 * into one fast receiver; deliveries per second from the first arrival to the last. The baseline, run
 * alternately on the same receiver, is got alone sending the same signed requests at the same concurrency (the
 * per-account limit, 8) with no database: the ratio is what the outbox costs.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { setWebhook } from '../../src/accounts/webhook-settings.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import type { Database } from '../../src/db/schema/index.js';
import { freePort } from '../../src/net.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { DEFAULT_WORKER_OPTIONS } from '../../src/webhooks/worker.js';
import { fmt, load, median, percentile, start, stop, waitFor } from './processes.js';

const LATENCY_RATES = [100, 1000];
const FILL_SECONDS = 2;

export async function benchWebhooks(database: { db: Database; connectionString: string }, options: { rounds: number; seconds: number }) {
  const key = randomBytes(32);
  const receiver = await startReceiver();
  try {
    const account = await createAccount(database.db, { name: 'webhook bench', plan: 'business' });
    // Codes are made by someone: here by a key, as if through the API (the history records it).
    const maker = await createApiKey(database.db, account.id);
    const { code } = await createQrCode(database.db, { accountId: account.id, name: 'webhook bench poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    const settings = await setWebhook(database.db, new SecretBox(key), { accountId: account.id, url: receiver.url, allowPrivate: true });
    receiver.secret = settings.secret!;
    const env = { DATABASE_URL: database.connectionString, WEBHOOK_SECRET_KEY: key.toString('base64'), ALLOW_PRIVATE_WEBHOOK_URLS: 'true', LOG_LEVEL: 'warn' };
    const pending = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(database.db)).rows[0]!.n);
    const drained = async (timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while ((await pending()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    };

    console.log('\nwebhook latency, scan → receiver (worker in the server process)');
    console.log(' scans/s   scans  delivered  p50 ms  p99 ms  max ms');
    const port = await freePort();
    const server = start('qroute', process.execPath, ['dist/src/main.js'], { ...env, PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/readyz`);
    const latencySummary: string[] = [];
    for (const rate of LATENCY_RATES) {
      receiver.reset();
      // Enough connections that the rate is reached although each scan waits for its commit.
      const result = await load(`http://127.0.0.1:${port}/r/${code.slug}`, 50, options.seconds, rate);
      await drained(60_000);
      const latencies = receiver.latencies();
      console.log(
        `${fmt(result.requestsPerSecond, 8)} ${fmt(result.statusCounts['302'] ?? 0, 7)} ${fmt(latencies.length, 10)}` +
          ` ${fmt(percentile(latencies, 0.5), 7)} ${fmt(percentile(latencies, 0.99), 7)} ${fmt(Math.max(...latencies), 7)}`,
      );
      latencySummary.push(`webhook latency at ${rate} scans/s: p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms`);
    }
    await stop(server);

    console.log(`\nwebhook throughput to one fast receiver: standalone worker vs got alone (concurrency ${DEFAULT_WORKER_OPTIONS.perAccountConcurrency})`);
    console.log('round  deliveries  worker/s  bare got/s  ratio');
    const fillPort = await freePort();
    const filler = start('qroute (no worker)', process.execPath, ['dist/src/main.js'], { ...env, PORT: String(fillPort), WEBHOOK_WORKER: 'false' });
    await waitFor(`http://127.0.0.1:${fillPort}/readyz`);
    const ratios: number[] = [];
    const rates: number[] = [];
    for (let round = 1; round <= options.rounds; round++) {
      await load(`http://127.0.0.1:${fillPort}/r/${code.slug}`, 50, FILL_SECONDS);
      const queued = await pending();
      receiver.reset();
      const worker = start('worker', process.execPath, ['dist/src/worker.js'], env);
      await receiver.waitForCount(queued, 120_000);
      await stop(worker);
      const workerRate = receiver.ratePerSecond();

      receiver.reset();
      const bare = start('bare sender', process.execPath, ['--import', 'tsx', 'scripts/bench/bare-sender.ts', receiver.url, String(queued), String(DEFAULT_WORKER_OPTIONS.perAccountConcurrency), receiver.secret], {});
      await new Promise((resolve) => bare.once('exit', resolve));
      const bareRate = receiver.ratePerSecond();
      ratios.push(workerRate / bareRate);
      rates.push(workerRate);
      console.log(`${String(round).padStart(5)} ${fmt(queued, 11)} ${fmt(workerRate, 9)} ${fmt(bareRate, 11)}  ${(workerRate / bareRate).toFixed(3)}`);
    }
    await stop(filler);
    const badSignatures = receiver.badSignatures;
    return [
      ...latencySummary,
      `webhook deliveries per second to one receiver (median): ${Math.round(median(rates))}; ratio worker ÷ bare got: ${median(ratios).toFixed(3)}`,
      `webhook signatures that did not verify: ${badSignatures}`,
    ];
  } finally {
    await receiver.close();
  }
}

async function startReceiver() {
  let arrivals: number[] = [];
  let latencies: number[] = [];
  let waiter: { count: number; resolve: () => void } | undefined;
  const state = { secret: '', badSignatures: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(createHmac('sha256', state.secret).update(body).digest('hex'));
      const got = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) state.badSignatures++;
      arrivals.push(now);
      latencies.push(now - Date.parse((JSON.parse(body.toString()) as { createdAt: string }).createdAt));
      if (waiter && arrivals.length >= waiter.count) waiter.resolve();
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get secret() {
      return state.secret;
    },
    set secret(value: string) {
      state.secret = value;
    },
    get badSignatures() {
      return state.badSignatures;
    },
    reset() {
      arrivals = [];
      latencies = [];
    },
    latencies: () => latencies,
    /** From the first arrival to the last. */
    ratePerSecond: () => ((arrivals.length - 1) * 1000) / Math.max(1, arrivals.at(-1)! - arrivals[0]!),
    waitForCount: (count: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (arrivals.length >= count) return resolve();
        const timer = setTimeout(() => reject(new Error(`receiver got ${arrivals.length} of ${count}`)), timeoutMs);
        waiter = { count, resolve: () => (clearTimeout(timer), resolve()) };
      }),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}
