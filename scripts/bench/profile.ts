/**
 * `npm run bench:profile`: where the time of one scan goes, in node and in PostgreSQL.
 *
 * Starts an embedded PostgreSQL with pg_stat_statements loaded, qroute (built, in its own process) under
 * `node --cpu-prof`, and loads one short link at PROFILE_CONNECTIONS connections for PROFILE_SECONDS seconds.
 * Prints, per answered scan:
 *   - CPU microseconds of the qroute process (user space and kernel) and of PostgreSQL, by process kind (from /proc);
 *   - the same for the bench's bare node:http server under the same load, the reference for qroute's share;
 *   - the statements PostgreSQL ran (pg_stat_statements): calls, mean time, and time per scan;
 *   - the node functions with the most self time (from the CPU profile), in microseconds per scan.
 *
 * PROFILE_PART=worker profiles a webhook delivery instead: the outbox is filled through qroute (no worker) for
 * PROFILE_SECONDS, then one standalone worker (`dist/src/worker.js`) drains it into a receiver here that answers
 * 204. Per delivery, from the first arrival to the last: CPU of the worker, of PostgreSQL by process kind and of
 * the receiver; the statements PostgreSQL ran; the worker's functions. Then got alone (bare-sender.ts) sends as
 * many at the worker's concurrency, and its CPU per request is the reference for the worker's.
 *
 * Env: PROFILE_SECONDS (default 10), PROFILE_CONNECTIONS (default 100), PROFILE_WEBHOOK=1 (the account has a
 * webhook endpoint, pointing at a receiver here that answers 204, and the worker runs in the server),
 * PROFILE_PERF=1 (also `perf record` both sides; needs Debian's linux-perf), PROFILE_CPU_PROFILE=0 (no
 * `--cpu-prof`: the V8 profiler itself costs qroute about a quarter more CPU per scan, so compare CPU with it off),
 * PROFILE_POOLING=transaction (qroute in its transaction-pooling mode, as behind PgBouncer: DATABASE_DIRECT_URL set to
 * the same server, so DATABASE_URL gets no session settings and no named prepared statements; no PgBouncer itself).
 */
import { execFileSync, spawn } from 'node:child_process';
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
import type { Database } from '../../src/db/schema/index.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { freePort } from '../../src/net.js';
import { prepareScanBatch, WRITE_SCAN_BATCH } from '../../src/redirect/scan-batch.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { CLOCK_TICKS_PER_SECOND, type CpuProfile, liveProcessTimes, postgresPids, postgresTicksByKind, selfTimes, totalTimes } from './cpu-usage.js';
import { cleanUpWhenInterrupted, fmt, killAll, load, start, stop, waitFor } from './processes.js';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 100);
const WEBHOOK = process.env.PROFILE_WEBHOOK === '1';
/** PROFILE_PERF=1: also sample CPU with `perf record` (Debian's linux-perf) in qroute and PostgreSQL. */
const PERF = process.env.PROFILE_PERF === '1';
const CPU_PROFILE = process.env.PROFILE_CPU_PROFILE !== '0';
/**
 * `transaction`: DATABASE_DIRECT_URL is the same server (told apart by its application_name), so qroute treats
 * DATABASE_URL as a transaction-mode pool and sends it what PgBouncer would pass: what pooling costs PostgreSQL per scan.
 */
const POOLING = process.env.PROFILE_POOLING === 'transaction' ? 'transaction' : 'session';
/** `redirect` (default): one scan; `worker`: one webhook delivery by a standalone worker. */
const PART = process.env.PROFILE_PART ?? 'redirect';

async function main() {
  console.log('building…');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });
  const logger = pino({ level: 'warn' });
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-profile-'));
  const profileDir = path.join(dataDir, 'cpu-profile');
  let postgres = await startEmbeddedPostgres(dataDir, logger);
  // pg_stat_statements must be preloaded: set it, then restart the cluster.
  const admin = createDatabase(postgres.adminConnectionString(), { logger, maxConnections: 1 });
  await sql`alter system set shared_preload_libraries = 'pg_stat_statements'`.execute(admin);
  await sql`alter system set pg_stat_statements.track = 'all'`.execute(admin);
  await sql`alter system set pg_stat_statements.track_planning = on`.execute(admin);
  await admin.destroy();
  await postgres.stop();
  postgres = await startEmbeddedPostgres(dataDir, logger);
  const cleanUp = cleanUpWhenInterrupted(async () => {
    await postgres.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  const superuser = createDatabase(postgres.adminConnectionString(), { logger, maxConnections: 1 });
  await sql`create extension if not exists pg_stat_statements`.execute(superuser);
  const db = createDatabase(postgres.connectionString(), { logger });
  await migrateToLatest(db, logger);
  // Counts what arrives, for the worker part's first and last arrival.
  const arrivals = new ArrivalCounter();
  const receiver = http.createServer((req, res) => req.resume().on('end', () => {
    res.writeHead(204).end();
    arrivals.sockets.add(req.socket);
    arrivals.arrived();
  }));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  try {
    const key = randomBytes(32);
    const account = await createAccount(db, { name: 'profile', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'profile poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    const secret = WEBHOOK || PART === 'worker' ? (await setWebhook(db, new SecretBox(key), { accountId: account.id, url: receiverUrl, allowPrivate: true })).secret! : undefined;
    const databaseUrl = postgres.localConnectionString();
    const env: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      ...(POOLING === 'transaction' && { DATABASE_DIRECT_URL: `${databaseUrl}${databaseUrl.includes('?') ? '&' : '?'}application_name=direct` }),
      WEBHOOK_SECRET_KEY: key.toString('base64'),
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'loopback', // load.ts forwards each scanner's address, as a proxy would
    };
    const context = { db, superuser, dataDir, profileDir, env, code: { ...code, accountId: account.id }, arrivals, receiverUrl, secret: secret ?? '' };
    if (PART === 'worker') await profileWorker(context);
    else await profileRedirect(context);
  } finally {
    killAll();
    receiver.close();
    await db.destroy();
    await superuser.destroy();
    await cleanUp();
  }
}


interface ProfileContext {
  db: Database;
  superuser: Database;
  dataDir: string;
  profileDir: string;
  env: Record<string, string>;
  code: { id: string; slug: string; destinationUrl: string; accountId: string };
  arrivals: ArrivalCounter;
  receiverUrl: string;
  secret: string;
}

async function profileRedirect({ db, superuser, dataDir, profileDir, env, code }: ProfileContext): Promise<void> {
  const port = await freePort();
  const qroute = start('qroute', process.execPath, [...profilerFlags(profileDir), 'dist/src/main.js'], { ...env, WEBHOOK_WORKER: WEBHOOK ? 'true' : 'false', PORT: String(port) });
  const target = `http://127.0.0.1:${port}/r/${code.slug}`;
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  await load(target, CONNECTIONS, 2); // warm-up: JIT, caches, pool
  await sql`select pg_stat_statements_reset()`.execute(superuser);
  const nodeBefore = await liveProcessTimes(qroute.pid!);
  const postgresBefore = await postgresTicksByKind(dataDir);
  const perfData = path.join(dataDir, 'perf.data');
  const perf = PERF ? spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '2000', '-o', perfData, '-p', [qroute.pid!, ...(await postgresPids(dataDir))].join(','), '--', 'sleep', String(SECONDS)], { stdio: 'inherit' }) : undefined;
  const result = await load(target, CONNECTIONS, SECONDS);
  if (perf) await new Promise((resolve) => perf.once('exit', resolve));
  const nodeAfter = await liveProcessTimes(qroute.pid!);
  const postgresAfter = await postgresTicksByKind(dataDir);
  const scans = result.statusCounts['302'] ?? 0;
  const perScan = (ticks: number) => ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / scans;
  console.log(`\n${CONNECTIONS} connections, ${SECONDS} s, ${POOLING} pooling: ${Math.round(result.requestsPerSecond)} scans/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${scans} scans`);
  const nodeUser = nodeAfter.user - nodeBefore.user;
  const nodeSystem = nodeAfter.system - nodeBefore.system;
  console.log(`CPU per scan: qroute ${perScan(nodeUser + nodeSystem).toFixed(1)} µs (user space ${perScan(nodeUser).toFixed(1)} µs, kernel ${perScan(nodeSystem).toFixed(1)} µs)`);
  printPostgresCpu(postgresBefore, postgresAfter, scans, 'scan');
  // The reference: node:http answering 302 and nothing else (the bench's bare server), same load, measured alike.
  const barePort = await freePort();
  const bare = start('bare', process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts', String(barePort)], {});
  await waitFor(`http://127.0.0.1:${barePort}/r/x`);
  await load(`http://127.0.0.1:${barePort}/r/x`, CONNECTIONS, 2);
  const bareBefore = await liveProcessTimes(bare.pid!);
  const bareResult = await load(`http://127.0.0.1:${barePort}/r/x`, CONNECTIONS, SECONDS);
  const bareAfter = await liveProcessTimes(bare.pid!);
  await stop(bare);
  const perBare = (ticks: number) => ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / bareResult.total;
  console.log(`bare node:http, same load: ${Math.round(bareResult.requestsPerSecond)} req/s; CPU per request in user space ${perBare(bareAfter.user - bareBefore.user).toFixed(1)} µs, in the kernel ${perBare(bareAfter.system - bareBefore.system).toFixed(1)} µs`);

  const statements = await printStatements(superuser, scans, 'scan');

  // The batch statement on its own, at the batch size the load made, plan and buffers per node.
  const batchSize = Math.max(1, Math.round(scans / Math.max(1, Number(statements.find((row) => row.query.includes('scan_batches'))?.calls ?? 1))));
  const batch = prepareScanBatch(Array.from({ length: batchSize }, () => ({
    codeId: code.id, accountId: code.accountId, at: new Date(), device: 'mobile', os: 'iOS',
    browser: 'Mobile Safari', destinationUrl: code.destinationUrl, referrerHost: null, country: null, region: null, city: null, language: null, visitor: null, bot: false,
  })));
  const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
  const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${WRITE_SCAN_BATCH.text.replace('$1', literal(batch.id)).replaceAll('$2', literal(batch.rows))}`).execute(db);
  console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of one batch of ${batchSize} scans`);
  for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);

  await stop(qroute);
  if (PERF) printPerfReport(perfData);
  if (CPU_PROFILE) await printCpuProfile(profileDir, scans, 'scan', 'qroute');
}

function profilerFlags(profileDir: string): string[] {
  return [...(CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(PERF ? ['--perf-basic-prof'] : [])];
}

/** The statements PostgreSQL ran since the last reset, by total time, with their time per `unit` (scan, delivery). */
async function printStatements(superuser: Database, units: number, unit: string): Promise<Array<{ query: string; calls: string }>> {
  const statements = await sql<{ query: string; calls: string; mean: number; total: number; plans: string; planMean: number }>`
    select query, calls, mean_exec_time as mean, total_exec_time + total_plan_time as total, plans, mean_plan_time as "planMean"
    from pg_stat_statements where calls > 0 order by total_exec_time desc limit 8`.execute(superuser);
  console.log('\nPostgreSQL statements (pg_stat_statements, by total time)');
  console.log(`   calls  mean ms    plans  plan ms  µs/${unit.padEnd(8)} statement`);
  for (const row of statements.rows) {
    console.log(`${fmt(Number(row.calls), 8)} ${row.mean.toFixed(3).padStart(8)} ${fmt(Number(row.plans), 8)} ${row.planMean.toFixed(3).padStart(8)} ${((row.total * 1000) / units).toFixed(1).padStart(11)}  ${row.query.replace(/\s+/g, ' ').slice(0, 90)}`);
  }
  return statements.rows;
}

/** PostgreSQL's CPU between two readings of `postgresTicksByKind`, per `unit`, by process kind. */
function printPostgresCpu(before: Map<string, number>, after: Map<string, number>, units: number, unit: string): void {
  const perUnit = (ticks: number) => ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / units;
  const byKind = [...after].map(([kind, ticks]) => [kind, perUnit(ticks - (before.get(kind) ?? 0))] as const);
  const total = byKind.reduce((sum, [, us]) => sum + us, 0);
  const shown = byKind.filter(([, us]) => us >= 0.05).sort((a, b) => b[1] - a[1]);
  console.log(`PostgreSQL CPU per ${unit}: ${total.toFixed(1)} µs; by process: ${shown.map(([kind, us]) => `${kind} ${us.toFixed(1)} µs`).join(', ')}`);
}

/**
 * CPU samples (not wall time, unlike node's profiler, which charges a descheduled thread to its syscall), kernel
 * included, for the profiled node process and every PostgreSQL process: what a unit really costs, function by function.
 */
function printPerfReport(perfData: string): void {
  console.log('\nperf: CPU samples by process and symbol, kernel included (>= 0.7%)');
  const report = (sort: string, limit: string) =>
    execFileSync('perf', ['report', '-i', perfData, '--stdio', '--no-children', '--sort', sort, '--percent-limit', limit], { encoding: 'utf8', maxBuffer: 64 << 20 })
      .split('\n').filter((line) => line.trim() && !line.startsWith('#')).join('\n');
  console.log(report('comm,dso', '1'));
  console.log(report('comm,sym', '0.7'));
}

/** The profiled process's functions by self time, and its own functions by total time, per `unit`. */
async function printCpuProfile(profileDir: string, units: number, unit: string, processName: string): Promise<void> {
  const [profileFile] = await fs.readdir(profileDir);
  const profile = JSON.parse(await fs.readFile(path.join(profileDir, profileFile!), 'utf8')) as CpuProfile;
  console.log(`\n${processName} self time by function (CPU profile, whole run incl. start-up and warm-up; µs per measured ${unit})`);
  for (const [name, micros] of selfTimes(profile).slice(0, 25)) console.log(`${(micros / units).toFixed(2).padStart(8)}  ${name}`);
  console.log(`\n${processName} total time (self and callees) of its own functions, µs per measured ${unit}`);
  for (const [name, micros] of totalTimes(profile).filter(([name]) => name.includes('dist/src/')).slice(0, 20)) console.log(`${(micros / units).toFixed(2).padStart(8)}  ${name}`);
}

/** Counts the receiver's arrivals; resolves a wait when a count is reached. */
class ArrivalCounter {
  count = 0;
  /** Connections the sender opened: one per request it had in flight at once. */
  readonly sockets = new Set<unknown>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];

  arrived(): void {
    this.count++;
    this.waiters = this.waiters.filter((waiter) => (this.count >= waiter.count ? (waiter.resolve(), false) : true));
  }

  reached(count: number): Promise<void> {
    return this.count >= count ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ count, resolve }));
  }
}

/**
 * One webhook delivery: fills the outbox through qroute with no worker, then lets one standalone worker drain it.
 * CPU is read at the first arrival and at the last, so the worker's start-up and the fill are left out.
 */
async function profileWorker({ superuser, dataDir, profileDir, env, code, arrivals, receiverUrl, secret }: ProfileContext): Promise<void> {
  const port = await freePort();
  const filler = start('qroute (no worker)', process.execPath, ['dist/src/main.js'], { ...env, WEBHOOK_WORKER: 'false', PORT: String(port) });
  await waitFor(`http://127.0.0.1:${port}/readyz`);
  await load(`http://127.0.0.1:${port}/r/${code.slug}`, 50, SECONDS);
  await stop(filler);
  const queued = Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where status = 'pending'`.execute(superuser)).rows[0]!.n);
  // What the fill left behind (dirty pages, WAL) is written now, not during the drain.
  await sql`checkpoint`.execute(superuser);
  await sql`select pg_stat_statements_reset()`.execute(superuser);

  const worker = start('worker', process.execPath, [...profilerFlags(profileDir), 'dist/src/worker.js'], env);
  await arrivals.reached(1);
  const started = { at: performance.now(), worker: await liveProcessTimes(worker.pid!), postgres: await postgresTicksByKind(dataDir), receiver: process.cpuUsage() };
  const perfData = path.join(dataDir, 'perf.data');
  const perf = PERF ? spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '2000', '-o', perfData, '-p', [worker.pid!, ...(await postgresPids(dataDir))].join(','), '--', 'sleep', '5'], { stdio: 'inherit' }) : undefined;
  await arrivals.reached(queued);
  const ended = { at: performance.now(), worker: await liveProcessTimes(worker.pid!), postgres: await postgresTicksByKind(dataDir), receiver: process.cpuUsage(started.receiver) };
  if (perf) await new Promise((resolve) => perf.once('exit', resolve));
  await stop(worker);
  const deliveries = queued - 1;
  const perDelivery = (ticks: number) => ((ticks / CLOCK_TICKS_PER_SECOND) * 1e6) / deliveries;
  const rate = (deliveries * 1000) / (ended.at - started.at);
  console.log(`\n${queued} deliveries queued, drained by one worker at ${Math.round(rate)}/s`);
  console.log(
    `CPU per delivery: worker ${perDelivery(ended.worker.user - started.worker.user).toFixed(1)} µs in user space, ` +
      `${perDelivery(ended.worker.system - started.worker.system).toFixed(1)} µs in the kernel; ` +
      `receiver ${((ended.receiver.user + ended.receiver.system) / deliveries).toFixed(1)} µs`,
  );
  printPostgresCpu(started.postgres, ended.postgres, deliveries, 'delivery');
  await printStatements(superuser, deliveries, 'delivery');

  // The reference: got alone, same receiver, same count, at the concurrency the worker reached.
  const concurrency = Math.max(1, arrivals.sockets.size);
  const bare = await bareSenderCpu(receiverUrl, queued, concurrency, secret);
  console.log(`got alone at ${concurrency} in flight: ${Math.round(bare.rate)}/s; CPU per request ${bare.userMicrosPerRequest.toFixed(1)} µs in user space, ${bare.systemMicrosPerRequest.toFixed(1)} µs in the kernel`);
  if (PERF) printPerfReport(perfData);
  if (CPU_PROFILE) await printCpuProfile(profileDir, deliveries, 'delivery', 'worker');
}

/** got alone (bare-sender.ts) sending `count` signed requests at `concurrency`: its rate and CPU, start-up left out. */
async function bareSenderCpu(url: string, count: number, concurrency: number, secret: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/bare-sender.ts', url, String(count), String(concurrency), secret], {
    cwd: PROJECT_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  await new Promise((resolve) => child.once('exit', resolve));
  const report = JSON.parse(out.trim().split('\n').pop()!) as { userMicros: number; systemMicros: number; seconds: number };
  return { rate: count / report.seconds, userMicrosPerRequest: report.userMicros / count, systemMicrosPerRequest: report.systemMicros / count };
}

await main();
