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
 * Env: PROFILE_SECONDS (default 10), PROFILE_CONNECTIONS (default 100), PROFILE_WEBHOOK=1 (the account has a
 * webhook endpoint, pointing at a receiver here that answers 204, and the worker runs in the server),
 * PROFILE_PERF=1 (also `perf record` both sides; needs Debian's linux-perf), PROFILE_CPU_PROFILE=0 (no
 * `--cpu-prof`: the V8 profiler itself costs qroute about a quarter more CPU per scan, so compare CPU with it off).
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
import { setWebhook } from '../../src/accounts/webhook-settings.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { freePort } from '../../src/net.js';
import { prepareScanBatch, WRITE_SCAN_BATCH } from '../../src/redirect/scan-batch.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { cleanUpWhenInterrupted, fmt, killAll, load, start, stop, waitFor } from './processes.js';

const SECONDS = Number(process.env.PROFILE_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS ?? 100);
const WEBHOOK = process.env.PROFILE_WEBHOOK === '1';
/** PROFILE_PERF=1: also sample CPU with `perf record` (Debian's linux-perf) in qroute and PostgreSQL. */
const PERF = process.env.PROFILE_PERF === '1';
const CPU_PROFILE = process.env.PROFILE_CPU_PROFILE !== '0';
const CLOCK_TICKS_PER_SECOND = 100;

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
  const receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const key = randomBytes(32);
    const account = await createAccount(db, { name: 'profile', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'profile poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    if (WEBHOOK) {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      await setWebhook(db, new SecretBox(key), { accountId: account.id, url, allowPrivate: true });
    }
    const port = await freePort();
    const qroute = start('qroute', process.execPath, [...(CPU_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : []), ...(PERF ? ['--perf-basic-prof'] : []), 'dist/src/main.js'], {
      DATABASE_URL: postgres.localConnectionString(),
      WEBHOOK_SECRET_KEY: key.toString('base64'),
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      WEBHOOK_WORKER: WEBHOOK ? 'true' : 'false',
      PORT: String(port),
      LOG_LEVEL: 'warn',
    });
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
    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s: ${Math.round(result.requestsPerSecond)} scans/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${scans} scans`);
    const nodeUser = nodeAfter.user - nodeBefore.user;
    const nodeSystem = nodeAfter.system - nodeBefore.system;
    const postgresByKind = [...postgresAfter].map(([kind, ticks]) => [kind, ticks - (postgresBefore.get(kind) ?? 0)] as const);
    const postgresTotal = postgresByKind.reduce((sum, [, ticks]) => sum + ticks, 0);
    console.log(`CPU per scan: qroute ${perScan(nodeUser + nodeSystem).toFixed(1)} µs, PostgreSQL (all processes) ${perScan(postgresTotal).toFixed(1)} µs`);
    console.log(`qroute's CPU per scan in user space ${perScan(nodeUser).toFixed(1)} µs, in the kernel ${perScan(nodeSystem).toFixed(1)} µs`);
    const byKind = postgresByKind.map(([kind, ticks]) => [kind, perScan(ticks)] as const).filter(([, us]) => us >= 0.05);
    console.log(`PostgreSQL CPU per scan by process: ${byKind.sort((a, b) => b[1] - a[1]).map(([kind, us]) => `${kind} ${us.toFixed(1)} µs`).join(', ')}`);
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

    const statements = await sql<{ query: string; calls: string; mean: number; total: number; plans: string; planMean: number }>`
      select query, calls, mean_exec_time as mean, total_exec_time + total_plan_time as total, plans, mean_plan_time as "planMean"
      from pg_stat_statements where calls > 0 order by total_exec_time desc limit 8`.execute(superuser);
    console.log('\nPostgreSQL statements (pg_stat_statements, by total time)');
    console.log('   calls  mean ms    plans  plan ms  µs/scan  statement');
    for (const row of statements.rows) {
      console.log(`${fmt(Number(row.calls), 8)} ${row.mean.toFixed(3).padStart(8)} ${fmt(Number(row.plans), 8)} ${row.planMean.toFixed(3).padStart(8)} ${((row.total * 1000) / scans).toFixed(1).padStart(8)}  ${row.query.replace(/\s+/g, ' ').slice(0, 90)}`);
    }

    // The batch statement on its own, at the batch size the load made, plan and buffers per node.
    const batchSize = Math.max(1, Math.round(scans / Math.max(1, Number(statements.rows.find((row) => row.query.includes('scan_batches'))?.calls ?? 1))));
    const batch = prepareScanBatch(Array.from({ length: batchSize }, () => ({
      codeId: code.id, accountId: account.id, at: new Date(), device: 'mobile', os: 'iOS',
      browser: 'Mobile Safari', destinationUrl: code.destinationUrl, referrerHost: null, bot: false,
    })));
    const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;
    const plan = await sql.raw<{ 'QUERY PLAN': string }>(`explain (analyze, buffers, costs off) ${WRITE_SCAN_BATCH.text.replace('$1', literal(batch.id)).replaceAll('$2', literal(batch.rows))}`).execute(db);
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of one batch of ${batchSize} scans`);
    for (const row of plan.rows) console.log(`  ${row['QUERY PLAN']}`);

    await stop(qroute);
    if (PERF) {
      // CPU samples (not wall time, unlike node's profiler, which charges a descheduled thread to its syscall), kernel
      // included, for qroute and every PostgreSQL process: what a scan really costs, function by function.
      console.log('\nperf: CPU samples by process and symbol, kernel included (>= 0.7%)');
      const report = (sort: string, limit: string) =>
        execFileSync('perf', ['report', '-i', perfData, '--stdio', '--no-children', '--sort', sort, '--percent-limit', limit], { encoding: 'utf8', maxBuffer: 64 << 20 })
          .split('\n').filter((line) => line.trim() && !line.startsWith('#')).join('\n');
      console.log(report('comm,dso', '1'));
      console.log(report('comm,sym', '0.7'));
    }
    if (CPU_PROFILE) {
      const [profileFile] = await fs.readdir(profileDir);
      const profile = JSON.parse(await fs.readFile(path.join(profileDir, profileFile!), 'utf8')) as CpuProfile;
      console.log('\nqroute self time by function (CPU profile, whole run incl. start-up and warm-up; µs per measured scan)');
      for (const [name, micros] of selfTimes(profile).slice(0, 25)) console.log(`${(micros / scans).toFixed(2).padStart(8)}  ${name}`);
      console.log('\nqroute total time (self and callees) of its own functions, µs per measured scan');
      for (const [name, micros] of totalTimes(profile).filter(([name]) => name.includes('dist/src/')).slice(0, 20)) console.log(`${(micros / scans).toFixed(2).padStart(8)}  ${name}`);
    }
  } finally {
    killAll();
    receiver.close();
    await db.destroy();
    await superuser.destroy();
    await cleanUp();
  }
}

interface CpuProfile {
  nodes: Array<{ id: number; children?: number[]; callFrame: { functionName: string; url: string; lineNumber: number } }>;
  samples: number[];
  timeDeltas: number[];
}

/** Self time per function (name, file and line), in microseconds, largest first. */
function selfTimes(profile: CpuProfile): Array<[string, number]> {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const name = frameName(byNode.get(id)!.callFrame);
    totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

/** Time in each function and everything it called (a recursive function counted once per sample), largest first. */
function totalTimes(profile: CpuProfile): Array<[string, number]> {
  const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const totals = new Map<string, number>();
  profile.samples.forEach((id, index) => {
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const name = frameName(byNode.get(at)!.callFrame);
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
    }
  });
  return [...totals].sort((a, b) => b[1] - a[1]);
}

function frameName(frame: { functionName: string; url: string; lineNumber: number }): string {
  const file = frame.url.replace(/^.*\/(node_modules\/|dist\/)/, '$1');
  return `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
}

/** CPU clock ticks of one process from /proc/<pid>/stat: its own (user space, kernel) and its waited-for children's. */
async function processTimes(pid: number): Promise<{ user: number; system: number; exitedChildren: number } | undefined> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  if (!stat) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ').map(Number);
  return { user: fields[11]!, system: fields[12]!, exitedChildren: fields[13]! + fields[14]! };
}

/** processTimes of a process that must be running (qroute, the bare server). */
async function liveProcessTimes(pid: number): Promise<{ user: number; system: number }> {
  const times = await processTimes(pid);
  if (!times) throw new Error(`process ${pid} is not running`);
  return times;
}

/**
 * PostgreSQL's CPU ticks by process kind (client backends, WAL writer, checkpointer, autovacuum…), from each
 * process title; the postmaster's `exited children` counts the short-lived ones (autovacuum workers) that ended.
 */
async function postgresTicksByKind(dataDir: string): Promise<Map<string, number>> {
  const byKind = new Map<string, number>();
  const add = (kind: string, ticks: number) => byKind.set(kind, (byKind.get(kind) ?? 0) + ticks);
  const [postmaster, ...children] = await postgresPids(dataDir);
  for (const pid of [postmaster!, ...children]) {
    const times = await processTimes(pid);
    if (!times) continue;
    const title = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ').trim();
    // "postgres: qroute qroute 127.0.0.1(5432) idle" (TCP) or "postgres: qroute qroute [local] idle" (the socket
    // qroute uses) is a client backend; "postgres: walwriter " a helper.
    const kind = pid === postmaster ? 'postmaster' : /^postgres: \S+ \S+ ([\d.:[\]]+\(\d+\)|\[local\])/.test(title) ? 'client backends' : title.replace(/^postgres: /, '').replace(/\s.*$/, '') || 'other';
    add(kind, times.user + times.system);
    if (pid === postmaster) add('exited children (autovacuum workers…)', times.exitedChildren);
  }
  return byKind;
}

/** The postmaster of this data directory and all its children (backends, WAL writer, checkpointer…). */
async function postgresPids(dataDir: string): Promise<number[]> {
  const pidFile = await fs.readFile(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').catch(async () => {
    const entries = await fs.readdir(dataDir);
    for (const entry of entries) {
      const text = await fs.readFile(path.join(dataDir, entry, 'postmaster.pid'), 'utf8').catch(() => undefined);
      if (text) return text;
    }
    throw new Error(`no postmaster.pid under ${dataDir}`);
  });
  const postmaster = Number(pidFile.split('\n')[0]);
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
  return [postmaster, ...children];
}

await main();
