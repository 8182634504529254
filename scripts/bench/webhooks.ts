/**
 * The webhook half of `npm run bench`.
 *
 * Latency: qroute (worker in-process, as by default) under a steady (paced) scan load for BENCH_WEBHOOK_SECONDS
 * (default 60: a backlog that grows shows only over a longer run than the redirect part's few seconds), and
 * briefly under autocannon's rate, which sends each second's scans as one burst; a receiver on loopback measures, for every POST, the time from the scan (the payload's `createdAt`, stamped when the redirect
 * handled the request) to its arrival. Reported as p50/p99/max per load level, with the pending outbox sampled
 * every second (start, middle, end) and where the time goes: the redirect's own latency (the scan and its outbox
 * row committed, p50 from the load generator), scan → first attempt started (that commit, the notification and
 * the worker's claim), and attempt → arrival.
 *
 * Throughput: with the outbox filled while no worker runs, a standalone worker (`dist/src/worker.js`) drains it
 * into one fast receiver; deliveries per second from the first arrival to the last. The receiver also counts the
 * connections the worker opened, the most it had in flight (its per-account bound adapts, so its concurrency is
 * measured, not assumed). The baseline, on the same receiver, is got alone sending the same signed requests with no
 * database, at that concurrency (the ratio the issue asks for) and at the old fixed 8. Each round measures two
 * pairs, worker then got, then got then worker, so a drift of the machine's speed does not favour one side. Then 2
 * and 4 standalone workers drain a fill together.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import type { Database } from '../../src/db/schema/index.js';
import { freePort } from '../../src/net.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { fmt, load, type LoadResult, median, percentile, start, stop, waitFor } from './processes.js';

const LATENCY_RATES = [100, 1000];
const LATENCY_SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? 60);
const FILL_SECONDS = 3;
const OLD_FIXED_BOUND = 8;
const WORKER_COUNTS = [2, 4];

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
    console.log('load                 scans/s   scans  delivered  p50 ms  p99 ms  max ms | pending start/middle/end (max) | p50 ms: 302  scan→attempt  attempt→arrival');
    const port = await freePort();
    const server = start('qroute', process.execPath, ['dist/src/main.js'], { ...env, PORT: String(port) });
    await waitFor(`http://127.0.0.1:${port}/readyz`);
    const target = `http://127.0.0.1:${port}/r/${code.slug}`;
    const latencySummary: string[] = [];
    // autocannon's rate lets each connection send its share of a second back to back, then wait for the next
    // second: a second's scans arrive as one burst (the old bench's only load). Kept, short, to show what bursts
    // cost; the paced load (one scan every 1/rate s, as many phones scanning) is the steady load the issue means.
    const runs = [
      ...LATENCY_RATES.map((rate) => ({ label: `autocannon ${options.seconds} s`, rate, seconds: options.seconds, paced: false })),
      ...LATENCY_RATES.map((rate) => ({ label: `paced ${LATENCY_SECONDS} s`, rate, seconds: LATENCY_SECONDS, paced: true })),
    ];
    for (const run of runs) {
      receiver.reset();
      const since = new Date();
      const samples: number[] = [];
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          samples.push(await pending());
          await new Promise((r) => setTimeout(r, 1_000));
        }
      })();
      // Enough connections that the rate is reached although each scan waits for its commit.
      const result = run.paced ? await pacedLoad(target, run.rate, run.seconds) : await load(target, 50, run.seconds, run.rate);
      sampling = false;
      await sampler;
      await drained(60_000);
      const latencies = receiver.latencies();
      const stages = await latencyStages(database.db, since, receiver.arrivalsById());
      // The first and last second straddle the load's start and end; the samples inside them are the run.
      const inside = samples.length > 2 ? samples.slice(1, -1) : samples;
      const backlog = [inside[0], inside[Math.floor(inside.length / 2)], inside.at(-1)].map((n) => n ?? NaN);
      console.log(
        `${run.label.padEnd(18)} ${fmt(result.requestsPerSecond, 8)} ${fmt(result.statusCounts['302'] ?? 0, 7)} ${fmt(latencies.length, 10)}` +
          ` ${fmt(percentile(latencies, 0.5), 7)} ${fmt(percentile(latencies, 0.99), 7)} ${fmt(Math.max(...latencies), 7)} |` +
          ` ${`${backlog.join('/')} (${Math.max(...inside)})`.padStart(30)} |` +
          ` ${fmt(result.p50, 11)} ${fmt(stages.toAttempt, 13)} ${fmt(stages.toArrival, 16)}`,
      );
      latencySummary.push(
        `webhook latency at ${run.rate} scans/s, ${run.label}: p50 ${percentile(latencies, 0.5)} ms, p99 ${percentile(latencies, 0.99)} ms; ` +
          `pending start/middle/end ${backlog.join('/')}`,
      );
    }
    await stop(server);

    console.log('\nwebhook throughput to one fast receiver: standalone worker vs got alone');
    console.log('round  deliveries  worker/s  connections | bare got/s, as many  ratio | bare got/s at 8  ratio');
    const fillPort = await freePort();
    const filler = start('qroute (no worker)', process.execPath, ['dist/src/main.js'], { ...env, PORT: String(fillPort), WEBHOOK_WORKER: 'false' });
    await waitFor(`http://127.0.0.1:${fillPort}/readyz`);
    const fill = async () => {
      await load(`http://127.0.0.1:${fillPort}/r/${code.slug}`, 50, FILL_SECONDS);
      return pending();
    };
    const drainWith = async (workers: number, queued: number) => {
      receiver.reset();
      const started = Array.from({ length: workers }, (_, i) => start(`worker ${i + 1}`, process.execPath, ['dist/src/worker.js'], env));
      await receiver.waitForCount(queued, 120_000);
      await Promise.all(started.map((worker) => stop(worker)));
      return { rate: receiver.ratePerSecond(), connections: receiver.connections() };
    };
    const bareRate = async (count: number, concurrency: number) => {
      receiver.reset();
      const bare = start('bare sender', process.execPath, ['--import', 'tsx', 'scripts/bench/bare-sender.ts', receiver.url, String(count), String(concurrency), receiver.secret], {});
      await new Promise((resolve) => bare.once('exit', resolve));
      return receiver.ratePerSecond();
    };
    const ratios: number[] = [];
    const ratiosAt8: number[] = [];
    const rates: number[] = [];
    const scaling = new Map<number, number[]>([[1, []], ...WORKER_COUNTS.map((n) => [n, []] as [number, number[]])]);
    for (let round = 1; round <= options.rounds; round++) {
      // Two pairs per round, in the order worker, got, got, worker: this machine's speed drifts over tens of
      // seconds, and a drift that favours one side in the first pair favours the other in the second. The
      // fill's aftermath (PostgreSQL flushing and vacuuming what the scans wrote) falls on either side alike.
      // got alone sends at the connection count the worker reached in the round's first drain.
      const queued = await fill();
      const first = await drainWith(1, queued);
      const connections = Math.max(1, first.connections);
      const bareFirst = await bareRate(queued, connections);
      const bare8 = await bareRate(queued, OLD_FIXED_BOUND);
      const requeued = await fill();
      const bareSecond = await bareRate(requeued, connections);
      const second = await drainWith(1, requeued);
      for (const [one, bare, count] of [[first, bareFirst, queued], [second, bareSecond, requeued]] as const) {
        ratios.push(one.rate / bare);
        rates.push(one.rate);
        scaling.get(1)!.push(one.rate);
        console.log(
          `${String(round).padStart(5)} ${fmt(count, 11)} ${fmt(one.rate, 9)} ${fmt(one.connections, 11)} |` +
            ` ${fmt(bare, 20)}  ${(one.rate / bare).toFixed(3)} | ${fmt(bare8, 15)}  ${(one.rate / bare8).toFixed(3)}`,
        );
      }
      ratiosAt8.push(first.rate / bare8, second.rate / bare8);
      for (const workers of WORKER_COUNTS) {
        const many = await drainWith(workers, await fill());
        scaling.get(workers)!.push(many.rate);
      }
    }
    await stop(filler);
    const scalingLine = [...scaling].map(([workers, values]) => `${workers}: ${Math.round(median(values))}/s`).join(', ');
    console.log(`standalone workers draining one fill together (median deliveries/s): ${scalingLine}`);
    const badSignatures = receiver.badSignatures;
    return [
      ...latencySummary,
      `webhook deliveries per second to one receiver (median): ${Math.round(median(rates))}; ratio worker ÷ bare got at the same concurrency: ${median(ratios).toFixed(3)} (÷ bare got at 8: ${median(ratiosAt8).toFixed(3)})`,
      `webhook throughput by standalone workers: ${scalingLine}`,
      `webhook signatures that did not verify: ${badSignatures}`,
    ];
  } finally {
    await receiver.close();
  }
}

/**
 * Scans at a steady `rate` for `seconds`, from this process: every 2 ms it sends as many as are due by then, each on
 * a keep-alive connection of its own while it waits for its commit. Reports like `load` (302 p50 from the answers).
 */
async function pacedLoad(url: string, rate: number, seconds: number): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 500 });
  const durations: number[] = [];
  const statusCounts: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  const inFlight = new Set<Promise<void>>();
  const scanOnce = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.get(url, { agent, headers: { 'user-agent': IPHONE } }, (response) => {
        response.resume().on('end', () => {
          statusCounts[String(response.statusCode)] = (statusCounts[String(response.statusCode)] ?? 0) + 1;
          durations.push(performance.now() - started);
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const begin = performance.now();
  const total = rate * seconds;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - begin) / 1000) * rate));
    for (; sent < due; sent++) {
      const scan = scanOnce().finally(() => inFlight.delete(scan));
      inFlight.add(scan);
    }
    await new Promise((r) => setTimeout(r, 2));
  }
  await Promise.all(inFlight);
  agent.destroy();
  const elapsed = (performance.now() - begin) / 1000;
  return {
    requestsPerSecond: sent / elapsed,
    p50: percentile(durations, 0.5),
    p99: percentile(durations, 0.99),
    total: sent,
    errors,
    statusCounts,
  };
}

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/**
 * Medians, for the deliveries of scans since `since`, of scan → first attempt started and first attempt started →
 * arrival at the receiver, in ms (a delivery row's `created_at` is its scan's time).
 */
async function latencyStages(db: Database, since: Date, arrivals: ReadonlyMap<string, number>): Promise<{ toAttempt: number; toArrival: number }> {
  const rows = await sql<{ id: string; created_at: Date; started_at: Date }>`
    select d.id, d.created_at, a.started_at
    from webhook_deliveries d join webhook_attempts a on a.delivery_id = d.id and a.attempt_number = 1
    where d.created_at >= ${since}
  `.execute(db);
  const toAttempt = rows.rows.map((row) => row.started_at.getTime() - row.created_at.getTime());
  const toArrival = rows.rows.flatMap((row) => {
    const arrived = arrivals.get(row.id);
    return arrived === undefined ? [] : [arrived - row.started_at.getTime()];
  });
  return { toAttempt: percentile(toAttempt, 0.5), toArrival: percentile(toArrival, 0.5) };
}

async function startReceiver() {
  let arrivals: number[] = [];
  let latencies: number[] = [];
  // Requests held at once, sampled as each one arrives.
  let sockets = new Set<unknown>();
  let arrivalsById = new Map<string, number>();
  let waiter: { count: number; resolve: () => void } | undefined;
  const state = { secret: '', badSignatures: 0 };
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const now = Date.now();
      const body = Buffer.concat(chunks);
      const expected = Buffer.from(createHmac('sha256', state.secret).update(body).digest('hex'));
      const got = Buffer.from(String(req.headers['x-service-signature'] ?? ''));
      if (got.length !== expected.length || !timingSafeEqual(got, expected)) state.badSignatures++;
      arrivals.push(now);
      arrivalsById.set(String(req.headers['webhook-id']), now);
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
      sockets = new Set();
      arrivalsById = new Map();
    },
    /**
     * Connections the sender used since the reset: each request in flight needs its own, so this is the most it
     * had in flight at once (a receiver on loopback answers each request before it reads the next, so counting
     * requests held at once here would say 1).
     */
    connections: () => sockets.size,
    arrivalsById: () => arrivalsById,
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
