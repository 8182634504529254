/**
 * `BENCH_PARTS=cluster`: redirects per second of three qroute instances against one, in the topology of
 * `npm run cluster` (scripts/cluster/topology.mjs: a primary and a streaming replica, PgBouncer in transaction mode,
 * three instances behind the node:http balancer, two webhook workers), started afresh in a temporary directory.
 *
 * One account has a webhook pointing at a receiver here (204, counts every webhook-id) and a code; another account has
 * a code and no webhook. Each round loads each code (the scenarios `webhook` and `no webhook`, alternating which goes
 * first), for `seconds` at `connections`, through three targets in turn (rotating which goes first):
 *   - `1 direct`: instance 1 on its own port, scanners' addresses forwarded as in the redirect part (load.ts); the
 *     other two instances stay up and idle (they only answer the balancer's health checks);
 *   - `1 balanced`: a balancer of the same code (scripts/cluster/balancer.mjs) over instance 1 alone;
 *   - `3 balanced`: the cluster's balancer over the three.
 * The balancer replaces X-Forwarded-For with its peer's address, as an edge must: through it every scan comes from
 * 127.0.0.1, no country lookup and the same few visitors, a cheaper scan than `1 direct`'s. So the ratio of three to
 * one is taken between the two balanced targets, which pay the same hop for the same scans.
 *
 * After each run: every 302 has its scan (scans in the database against 302s answered), every scan's webhook arrives
 * (unique webhook-ids received reach the scans recorded, within a bounded wait), PgBouncer's pools sampled during
 * the load (SHOW POOLS) and its transactions (SHOW STATS), the replica's replay lag, WAL written on the primary, and
 * CPU per scan of each kind of process from /proc, from the start of the load until the last webhook arrived.
 * Every scan with a webhook costs its delivery too (two workers, the outbox rows and their updates on the primary):
 * the `no webhook` scenario is what redirects alone scale to.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { createDatabase } from '../../src/db/database.js';
import { freePort } from '../../src/net.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { startCluster, type RunningCluster } from '../cluster/topology.mjs';
import { CLOCK_TICKS_PER_SECOND, liveProcessTimes, postgresTicksByKind } from './cpu-usage.js';
import { fmt, load, type LoadResult, median } from './processes.js';

type Target = '1 direct' | '1 balanced' | '3 balanced';
const TARGETS: readonly Target[] = ['1 direct', '1 balanced', '3 balanced'];
/** The code loaded: one in an account with a webhook (each scan one delivery) or one in an account without. */
type Scenario = 'webhook' | 'no webhook';
const SCENARIOS: readonly Scenario[] = ['webhook', 'no webhook'];

/** How long the webhooks of one run may take to arrive before the run counts as failed. */
const DELIVERY_WAIT_MS = 180_000;
const SAMPLE_EVERY_MS = 250;

/** scripts/cluster/balancer.mjs has no declaration file (and scripts/cluster/ is not the bench's to change). */
interface Balancer {
  port: number;
  close(graceMs?: number): Promise<void>;
}
type StartBalancer = (options: { host: string; port: number; upstreams: { name: string; url: string }[]; log: (line: string) => void }) => Promise<Balancer>;

export async function benchCluster(options: { rounds: number; seconds: number; connections: number }): Promise<{ lines: string[]; ok: boolean }> {
  const { rounds, seconds, connections } = options;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-cluster-bench-'));
  const key = randomBytes(32);
  // The cluster keeps its WEBHOOK_SECRET_KEY in this file and uses the one it finds: the webhook's secret is sealed with it here.
  await fs.writeFile(path.join(dir, 'webhook-secret-key'), `${key.toString('base64')}\n`, { mode: 0o600 });
  const receiver = await startReceiver();
  const logger = pino({ level: 'warn' });
  const port = await fourFreePorts();
  let cluster: RunningCluster | undefined;
  let balancer: Balancer | undefined;
  const clients: pg.Client[] = [];
  const lines: string[] = [];
  let ok = true;
  try {
    console.log(`\ncluster: starting the topology in ${dir}`);
    cluster = await startCluster({
      root: PROJECT_ROOT,
      dir,
      host: '127.0.0.1',
      port,
      print: (name, line) => {
        // Embedded PostgreSQL's start-up chatter and the balancers' rotation changes are not results.
        if (name !== 'postgres' && name !== 'balancer' && line.trim()) console.log(`  [${name}] ${line}`);
      },
      onUnexpectedExit: (name, how) => console.error(`cluster: ${name} exited (${how.signal ?? `code ${how.code}`}) during the bench`),
      env: { ...process.env, ALLOW_PRIVATE_WEBHOOK_URLS: 'true', LOG_LEVEL: 'warn', LOG_FORMAT: 'json' },
    });
    // The children are detached: if the bench is interrupted, they must not outlive it (startCluster's own advice).
    const running = cluster;
    process.once('exit', () => running.killNow());
    const pids = await clusterPids();

    const db = createDatabase(cluster.databaseUrls.direct, { logger, maxConnections: 2 });
    const account = await createAccount(db, { name: 'cluster bench', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'cluster poster', destinationUrl: 'https://example.com/cluster', actor: { kind: 'api_key', apiKeyId: maker.id } });
    await setWebhook(db, new SecretBox(key), { accountId: account.id, url: receiver.url, allowPrivate: true });
    const quiet = await createAccount(db, { name: 'cluster bench, no webhook', plan: 'business' });
    const quietMaker = await createApiKey(db, quiet.id);
    const { code: quietCode } = await createQrCode(db, { accountId: quiet.id, name: 'quiet poster', destinationUrl: 'https://example.com/quiet', actor: { kind: 'api_key', apiKeyId: quietMaker.id } });
    await db.destroy();

    const { startBalancer } = (await import(BALANCER_MODULE)) as { startBalancer: StartBalancer };
    balancer = await startBalancer({ host: '127.0.0.1', port: await freePort(), upstreams: [cluster.instances[0]!], log: () => undefined });
    const paths: Record<Target, string> = {
      '1 direct': cluster.instances[0]!.url,
      '1 balanced': `http://127.0.0.1:${balancer.port}`,
      '3 balanced': `http://127.0.0.1:${port}`,
    };
    const slugs: Record<Scenario, { slug: string; id: string }> = { webhook: code, 'no webhook': quietCode };
    const primary = await connect(cluster.adminUrl, clients);
    const bouncer = await connect(cluster.pgbouncerAdminUrl, clients);
    const readings = new Readings(pids, path.join(dir, 'primary'), path.join(dir, 'replica'), primary, bouncer);

    console.log(`\ncluster: ${rounds} rounds × ${seconds} s per target and scenario at ${connections} connections; CPU: ${os.cpus().length} cores; PgBouncer pool 10 server connections`);
    for (const scenario of SCENARIOS) for (const target of TARGETS) await load(`${paths[target]}/r/${slugs[scenario].slug}`, connections, 2); // warm-up: JIT, caches, pools
    await receiver.reached(await scansOf(primary, code.id), DELIVERY_WAIT_MS);

    const results = new Map<string, RunResult[]>();
    for (let round = 1; round <= rounds; round++) {
      const targets = TARGETS.map((_, i) => TARGETS[(i + round - 1) % TARGETS.length]!);
      const scenarios = round % 2 ? SCENARIOS : [...SCENARIOS].reverse();
      for (const scenario of scenarios) {
        for (const target of targets) {
          const result = await measure({
            target, scenario, url: `${paths[target]}/r/${slugs[scenario].slug}`, connections, seconds, readings, primary, bouncer, receiver, codeId: slugs[scenario].id,
          });
          results.set(`${target}|${scenario}`, [...(results.get(`${target}|${scenario}`) ?? []), result]);
          if (!result.ok) ok = false;
          console.log(`round ${round}  ${describe(result)}`);
        }
      }
    }

    lines.push('', `cluster part: medians of ${rounds} rounds at ${connections} connections`);
    for (const scenario of SCENARIOS) {
      lines.push(`  ${scenario === 'webhook' ? 'every scan with a webhook delivered by the two workers' : 'no webhook'}:`);
      for (const target of TARGETS) {
        const runs = results.get(`${target}|${scenario}`)!;
        const m = (pick: (run: RunResult) => number) => median(runs.map(pick));
        lines.push(
          `    ${target.padEnd(10)} ${fmt(m((r) => r.load.requestsPerSecond), 6)} req/s, p99 ${m((r) => r.load.p99)} ms; CPU µs per scan: qroute ${m((r) => r.cpu.qroute).toFixed(1)}` +
            ` (${fmt(m((r) => 1e6 / r.cpu.qroute), 0)} scans per instance CPU-second), primary ${m((r) => r.cpu.primary).toFixed(1)}, replica ${m((r) => r.cpu.replica).toFixed(1)} (replay ${m((r) => r.cpu.replay).toFixed(1)}),` +
            ` PgBouncer ${m((r) => r.cpu.pgbouncer).toFixed(1)}, workers ${m((r) => r.cpu.workers).toFixed(1)}, bench ${m((r) => r.cpu.bench).toFixed(1)};` +
            ` WAL ${fmt(m((r) => r.walPerScan), 0)} bytes per scan; sv_active ${m((r) => r.pool.svActive.mean).toFixed(1)} mean, ${fmt(m((r) => r.stats.xactPerSecond), 0)} xact/s`,
        );
      }
      const perRound = (a: Target, b: Target) => results.get(`${a}|${scenario}`)!.map((run, i) => run.load.requestsPerSecond / results.get(`${b}|${scenario}`)![i]!.load.requestsPerSecond);
      const balanced = perRound('3 balanced', '1 balanced');
      const direct = perRound('3 balanced', '1 direct');
      lines.push(`    3 ÷ 1 through the balancer: rounds ${balanced.map((r) => r.toFixed(2)).join(', ')}; median ${median(balanced).toFixed(2)}`);
      lines.push(`    3 balanced ÷ 1 direct:      rounds ${direct.map((r) => r.toFixed(2)).join(', ')}; median ${median(direct).toFixed(2)}`);
    }
    lines.push(`  every 302 has its scan and every scan its webhook: ${ok ? 'yes' : 'NO (see the runs above)'}`);
  } finally {
    for (const client of clients) await client.end().catch(() => undefined);
    await balancer?.close(1_000);
    await cluster?.stop();
    receiver.close();
    await fs.rm(dir, { recursive: true, force: true });
  }
  return { lines, ok };
}

// A variable, so TypeScript does not look for the declaration file scripts/cluster/ lacks.
const BALANCER_MODULE = '../cluster/balancer.mjs';

interface RunResult {
  target: Target;
  scenario: Scenario;
  load: LoadResult;
  ok: boolean;
  /** Scans recorded during the run, beyond the 302s answered (requests in flight when the load stopped). */
  extraScans: number;
  scans: number;
  deliveredInMs: number | undefined;
  duplicates: number;
  pool: PoolSummary;
  stats: { xactPerSecond: number; avgXactMicros: number; avgWaitMicros: number };
  replicaLag: { maxBytes: number; maxMs: number };
  walPerScan: number;
  /** CPU µs per scan, from the start of the load until the run's last webhook arrived. */
  cpu: { qroute: number; perInstance: number[]; workers: number; pgbouncer: number; primary: number; replica: number; replay: number; bench: number };
  /** Cores busy on the whole machine during the load (from /proc/stat). */
  machineCores: number;
}

async function measure(run: {
  target: Target;
  scenario: Scenario;
  url: string;
  connections: number;
  seconds: number;
  readings: Readings;
  primary: pg.Client;
  bouncer: pg.Client;
  receiver: Receiver;
  codeId: string;
}): Promise<RunResult> {
  const { readings, primary, bouncer, receiver } = run;
  const scansBefore = await scansOf(primary, run.codeId);
  const before = await readings.take();
  const sampler = new Sampler(primary, bouncer);
  const loaded = await load(run.url, run.connections, run.seconds);
  const pool = await sampler.stop();
  const afterLoad = await readings.take();
  const scansAfter = await scansOf(primary, run.codeId);
  const answered = loaded.statusCounts['302'] ?? 0;
  const scans = scansAfter - scansBefore;
  // The load generator stops with requests in flight: their scans may be recorded with nobody left to read the 302.
  const extraScans = scans - answered;
  const recorded = extraScans >= 0 && extraScans <= run.connections;
  let deliveredInMs: number | undefined = 0;
  if (run.scenario === 'webhook') {
    const waiting = performance.now();
    // Every scan of the code is one delivery (its account has the webhook; the runs before were all delivered).
    const total = await scansOf(primary, run.codeId);
    deliveredInMs = (await receiver.reached(total, DELIVERY_WAIT_MS)) ? performance.now() - waiting : undefined;
  }
  const after = await readings.take();
  const perScan = (ticks: number) => (scans > 0 ? ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / scans : NaN);
  const cpu = {
    qroute: perScan(sum(after.instances) - sum(before.instances)),
    perInstance: after.instances.map((ticks, i) => perScan(ticks - before.instances[i]!)),
    workers: perScan(after.workers - before.workers),
    pgbouncer: perScan(after.pgbouncer - before.pgbouncer),
    primary: perScan(after.primary - before.primary),
    replica: perScan(after.replica - before.replica),
    replay: perScan(after.replay - before.replay),
    bench: perScan(after.bench - before.bench),
  };
  const loadSeconds = (afterLoad.at - before.at) / 1000;
  const xacts = afterLoad.stats.xacts - before.stats.xacts;
  return {
    target: run.target,
    scenario: run.scenario,
    load: loaded,
    ok: recorded && deliveredInMs !== undefined && !loaded.errors && Object.keys(loaded.statusCounts).every((status) => status === '302'),
    extraScans,
    scans,
    deliveredInMs,
    duplicates: receiver.duplicates,
    pool,
    stats: {
      xactPerSecond: xacts / loadSeconds,
      avgXactMicros: xacts ? (afterLoad.stats.xactMicros - before.stats.xactMicros) / xacts : 0,
      avgWaitMicros: xacts ? (afterLoad.stats.waitMicros - before.stats.waitMicros) / xacts : 0,
    },
    replicaLag: sampler.lag,
    walPerScan: scans > 0 ? Number((await primary.query<{ bytes: string }>('select pg_wal_lsn_diff($1, $2)::text as bytes', [after.lsn, before.lsn])).rows[0]!.bytes) / scans : NaN,
    cpu,
    machineCores: (afterLoad.machineBusy - before.machineBusy) / CLOCK_TICKS_PER_SECOND / loadSeconds,
  };
}

function describe(r: RunResult): string {
  const p = r.pool;
  return [
    `${r.target.padEnd(10)} ${r.scenario.padEnd(10)} ${fmt(r.load.requestsPerSecond, 6)} req/s  p50/p99 ${r.load.p50}/${r.load.p99} ms  ${r.load.statusCounts['302'] ?? 0} 302s, ${r.scans} scans (+${r.extraScans} in flight)` +
      (r.scenario === 'webhook' ? `, webhooks ${r.deliveredInMs === undefined ? 'NOT all delivered' : `all in ${(r.deliveredInMs / 1000).toFixed(1)} s after the load`}` : '') +
      (r.duplicates ? ` (${r.duplicates} duplicate webhooks so far)` : '') +
      (r.ok ? '' : `  FAILED (statuses ${JSON.stringify(r.load.statusCounts)}, errors ${r.load.errors})`),
    `              PgBouncer: cl_active ${p.clActive.mean.toFixed(0)} mean/${p.clActive.max} max, cl_waiting ${p.clWaiting.mean.toFixed(1)}/${p.clWaiting.max},` +
      ` sv_active ${p.svActive.mean.toFixed(1)}/${p.svActive.max}, sv_idle ${p.svIdle.mean.toFixed(1)}/${p.svIdle.max}, maxwait ${p.maxWaitMs.toFixed(1)} ms;` +
      ` ${fmt(r.stats.xactPerSecond, 0)} xact/s, avg xact ${fmt(r.stats.avgXactMicros, 0)} µs, avg wait ${fmt(r.stats.avgWaitMicros, 0)} µs; replica lag ≤ ${fmt(r.replicaLag.maxBytes / 1024, 0)} KB / ${fmt(r.replicaLag.maxMs, 0)} ms`,
    `              CPU µs per scan: qroute ${r.cpu.qroute.toFixed(1)} (${r.cpu.perInstance.map((us) => us.toFixed(1)).join(' + ')}), workers ${r.cpu.workers.toFixed(1)},` +
      ` PgBouncer ${r.cpu.pgbouncer.toFixed(1)}, PostgreSQL primary ${r.cpu.primary.toFixed(1)}, replica ${r.cpu.replica.toFixed(1)} (replay ${r.cpu.replay.toFixed(1)}), bench (balancers, receiver) ${r.cpu.bench.toFixed(1)};` +
      ` WAL ${fmt(r.walPerScan, 0)} bytes per scan; machine ${r.machineCores.toFixed(2)} cores busy`,
  ].join('\n');
}

/** The processes startCluster started (children of this one), found by their command line and port. */
async function clusterPids(): Promise<{ instances: number[]; workers: number[]; pgbouncer: number }> {
  const instances: Array<{ port: number; pid: number }> = [];
  const workers: number[] = [];
  let pgbouncer = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (parent !== process.pid) continue;
    const command = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
    if (command.some((arg) => arg.endsWith('dist/src/main.js'))) {
      const environ = (await fs.readFile(`/proc/${pid}/environ`, 'utf8')).split('\0');
      instances.push({ pid, port: Number(environ.find((each) => each.startsWith('PORT='))?.slice(5)) });
    } else if (command.some((arg) => arg.endsWith('dist/src/worker.js'))) workers.push(pid);
    else if (command[0]?.endsWith('pgbouncer')) pgbouncer = pid;
  }
  if (instances.length !== 3 || workers.length !== 2 || !pgbouncer) throw new Error(`cluster processes not found: ${JSON.stringify({ instances, workers, pgbouncer })}`);
  return { instances: instances.sort((a, b) => a.port - b.port).map((each) => each.pid), workers, pgbouncer };
}

/** CPU ticks of every part of the cluster, the primary's WAL position and PgBouncer's counters, at one moment. */
class Readings {
  constructor(
    private readonly pids: { instances: number[]; workers: number[]; pgbouncer: number },
    private readonly primaryDir: string,
    private readonly replicaDir: string,
    private readonly primary: pg.Client,
    private readonly bouncer: pg.Client,
  ) {}

  async take() {
    const ticks = async (pid: number) => {
      const times = await liveProcessTimes(pid);
      return times.user + times.system;
    };
    const postgres = async (dir: string) => sum([...(await postgresTicksByKind(dir)).values()]);
    // The startup process replays the WAL, alone: its CPU per scan is what bounds a replica's scans/s.
    const replay = async (dir: string) => (await postgresTicksByKind(dir)).get('startup') ?? 0;
    const bench = process.cpuUsage();
    const stats = (await this.bouncer.query('SHOW STATS')).rows.filter((row) => row.database !== 'pgbouncer');
    const cpuLine = (await fs.readFile('/proc/stat', 'utf8')).split('\n')[0]!.split(/\s+/).slice(1).map(Number);
    return {
      at: performance.now(),
      instances: await Promise.all(this.pids.instances.map(ticks)),
      workers: sum(await Promise.all(this.pids.workers.map(ticks))),
      pgbouncer: await ticks(this.pids.pgbouncer),
      primary: await postgres(this.primaryDir),
      replica: await postgres(this.replicaDir),
      replay: await replay(this.replicaDir),
      bench: ((bench.user + bench.system) / 1e6) * CLOCK_TICKS_PER_SECOND,
      // user nice system idle iowait irq softirq steal: busy is all but idle and iowait.
      machineBusy: sum(cpuLine.slice(0, 8)) - cpuLine[3]! - cpuLine[4]!,
      lsn: (await this.primary.query<{ lsn: string }>('select pg_current_wal_lsn()::text as lsn')).rows[0]!.lsn,
      stats: {
        xacts: sum(stats.map((row) => Number(row.total_xact_count))),
        xactMicros: sum(stats.map((row) => Number(row.total_xact_time))),
        waitMicros: sum(stats.map((row) => Number(row.total_wait_time))),
      },
    };
  }
}

interface PoolSummary {
  clActive: { mean: number; max: number };
  clWaiting: { mean: number; max: number };
  svActive: { mean: number; max: number };
  svIdle: { mean: number; max: number };
  maxWaitMs: number;
}

/** SHOW POOLS and the replica's replay lag, every SAMPLE_EVERY_MS while the load runs. */
class Sampler {
  private readonly samples: Array<{ clActive: number; clWaiting: number; svActive: number; svIdle: number; maxWaitMs: number }> = [];
  readonly lag = { maxBytes: 0, maxMs: 0 };
  private readonly running: Promise<void>;
  private stopped = false;

  constructor(
    private readonly primary: pg.Client,
    private readonly bouncer: pg.Client,
  ) {
    this.running = this.loop();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      const pools = (await this.bouncer.query('SHOW POOLS')).rows.filter((row) => row.database !== 'pgbouncer');
      const total = (column: string) => sum(pools.map((row) => Number(row[column])));
      this.samples.push({
        clActive: total('cl_active'),
        clWaiting: total('cl_waiting'),
        svActive: total('sv_active'),
        svIdle: total('sv_idle'),
        maxWaitMs: Math.max(0, ...pools.map((row) => Number(row.maxwait) * 1000 + Number(row.maxwait_us) / 1000)),
      });
      const { rows } = await this.primary.query<{ bytes: string | null; ms: string | null }>(
        `select max(pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn))::text as bytes, max(extract(epoch from replay_lag) * 1000)::text as ms from pg_stat_replication`,
      );
      this.lag.maxBytes = Math.max(this.lag.maxBytes, Number(rows[0]?.bytes ?? 0));
      this.lag.maxMs = Math.max(this.lag.maxMs, Number(rows[0]?.ms ?? 0));
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_EVERY_MS));
    }
  }

  async stop(): Promise<PoolSummary> {
    this.stopped = true;
    await this.running;
    // The first sample and the last may fall before the load started or after it ended: left out when there are more.
    const during = this.samples.length > 4 ? this.samples.slice(1, -1) : this.samples;
    const of = (pick: (sample: (typeof during)[number]) => number) => ({ mean: sum(during.map(pick)) / Math.max(1, during.length), max: Math.max(0, ...during.map(pick)) });
    return { clActive: of((s) => s.clActive), clWaiting: of((s) => s.clWaiting), svActive: of((s) => s.svActive), svIdle: of((s) => s.svIdle), maxWaitMs: of((s) => s.maxWaitMs).max };
  }
}

interface Receiver {
  url: string;
  duplicates: number;
  /** Whether `count` distinct webhook-ids arrived within `timeoutMs`. */
  reached(count: number, timeoutMs: number): Promise<boolean>;
  close(): void;
}

/** The account's webhook endpoint: answers 204 at once and counts distinct webhook-ids. */
async function startReceiver(): Promise<Receiver> {
  const ids = new Set<string>();
  let waiters: Array<{ count: number; resolve: (reached: boolean) => void }> = [];
  const receiver: Receiver = {
    url: '',
    duplicates: 0,
    reached: (count, timeoutMs) => {
      if (ids.size >= count) return Promise.resolve(true);
      return new Promise((resolve) => {
        const waiter = { count, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          waiters = waiters.filter((each) => each !== waiter);
          resolve(ids.size >= count);
        }, timeoutMs);
      });
    },
    close: () => server.close(),
  };
  const server = http.createServer((req, res) => {
    req.resume().on('end', () => {
      res.writeHead(204).end();
      const id = String(req.headers['webhook-id']);
      if (ids.has(id)) receiver.duplicates++;
      ids.add(id);
      waiters = waiters.filter((waiter) => (ids.size >= waiter.count ? (waiter.resolve(true), false) : true));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  return receiver;
}

async function scansOf(primary: pg.Client, codeId: string): Promise<number> {
  return Number((await primary.query<{ n: string }>('select count(*)::text as n from scans where qr_code_id = $1', [codeId])).rows[0]!.n);
}

async function connect(connectionString: string, clients: pg.Client[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString });
  client.on('error', () => undefined);
  await client.connect();
  clients.push(client);
  return client;
}

/** A port with the three after it free too: the balancer's, then the instances'. */
async function fourFreePorts(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await freePort();
    if (port > 65_531) continue;
    const free = await Promise.all([1, 2, 3].map((offset) => isPortFree(port + offset)));
    if (free.every(Boolean)) return port;
  }
  throw new Error('no four free ports in a row');
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
