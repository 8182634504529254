import { randomBytes } from 'node:crypto';
/**
 * `npm run bench`: the redirect hot path against the physical limit of this machine, side by side.
 *
 * Builds qroute, starts it on the embedded PostgreSQL with one code, and a bare node:http server answering
 * every request with a 302. A separate load-generator process (autocannon) loads them alternately at 10 and
 * 100 connections with mobile user agents, several rounds each. Prints req/s, p50/p99 latency, the ratio
 * qroute ÷ bare per round and its median, and whether every 302 qroute sent has its scan in the database.
 * Ratios, not absolute numbers, are the result: the machine is shared and noisy.
 *
 * Env: BENCH_ROUNDS (default 3), BENCH_SECONDS per run (default 5).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createAccount } from '../../src/accounts/account-service.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { openDatabase } from '../../src/db/connect.js';
import { PROJECT_ROOT } from '../../src/paths.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = [10, 100];

interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  statusCounts: Record<string, number>;
}

const children: ChildProcess[] = [];

async function main() {
  console.log('building…');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: PROJECT_ROOT, stdio: 'inherit' });

  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-bench-'));
  const logger = pino({ level: 'warn' });
  const database = await openDatabase({ dataDir, databaseUrl: undefined }, { logger, stopEmbedded: 'always' });
  try {
    const account = await createAccount(database.db, { name: 'bench', plan: 'business' });
    const { code } = await createQrCode(database.db, {
      accountId: account.id,
      name: 'bench poster',
      destinationUrl: 'https://example.com/destination',
    });

    const barePort = await freePort();
    const qroutePort = await freePort();
    const bare = start('bare', process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts', String(barePort)], {});
    const qroute = start('qroute', process.execPath, ['dist/src/main.js'], {
      DATABASE_URL: database.connectionString,
      WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
      PORT: String(qroutePort),
      LOG_LEVEL: 'warn',
    });
    await waitFor(`http://127.0.0.1:${barePort}/r/x`);
    await waitFor(`http://127.0.0.1:${qroutePort}/readyz`);

    const targets = {
      bare: `http://127.0.0.1:${barePort}/r/${code.slug}`,
      qroute: `http://127.0.0.1:${qroutePort}/r/${code.slug}`,
    };
    let redirectsSent = 0;
    const summary: string[] = [];
    console.log(`\n${ROUNDS} rounds × ${SECONDS} s per server and connection count; CPU: ${os.cpus().length} cores\n`);
    console.log('conns round  bare req/s  p50/p99 ms | qroute req/s  p50/p99 ms | ratio');
    for (const connections of CONNECTIONS) {
      const ratios: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate which goes first, so warm-up and background noise do not favour one side.
        const order = round % 2 ? (['bare', 'qroute'] as const) : (['qroute', 'bare'] as const);
        const results: Partial<Record<'bare' | 'qroute', LoadResult>> = {};
        for (const name of order) results[name] = await load(targets[name], connections);
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
    const row = await database.db
      .selectFrom('qr_codes')
      .select(['scan_count', 'bot_scan_count'])
      .where('id', '=', code.id)
      .executeTakeFirstOrThrow();
    const rows = await database.db
      .selectFrom('scans')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('qr_code_id', '=', code.id)
      .executeTakeFirstOrThrow();
    console.log(`\n${summary.join('\n')}`);
    // The load generator stops with requests in flight: the server may have recorded those scans and sent
    // their 302s after the generator stopped listening, so up to `connections` scans per run can be extra.
    const maxInFlight = CONNECTIONS.reduce((sum, c) => sum + c * ROUNDS, 0);
    const extra = row.scan_count - redirectsSent;
    const durable = extra >= 0 && extra <= maxInFlight && Number(rows.n) === row.scan_count;
    console.log(`302s received from qroute: ${redirectsSent}; scans recorded: ${row.scan_count} (rows ${rows.n}, bots ${row.bot_scan_count})`);
    console.log(`every 302 received has its scan: ${durable ? 'yes' : 'NO'} (${extra} scans for requests in flight when the load generator stopped; at most ${maxInFlight})`);
    if (!durable) process.exitCode = 1;
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`${name} exited with ${code ?? signal}`);
  });
  children.push(child);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

function load(url: string, connections: number): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load.ts', url, String(connections), String(SECONDS)], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load generator exited ${code}`))));
  });
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function fmt(value: number, width: number): string {
  return Math.round(value).toString().padStart(width);
}

main().catch((error: unknown) => {
  for (const child of children) child.kill('SIGKILL');
  console.error(error);
  process.exit(1);
});
