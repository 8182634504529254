/** What the bench scripts share: child processes, the load generator, ports, and a little statistics. */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { freePort } from '../../src/net.js';
import { PROJECT_ROOT } from '../../src/paths.js';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  statusCounts: Record<string, number>;
}

const children: ChildProcess[] = [];

export function start(name: string, command: string, args: string[], env: Record<string, string>): ChildProcess {
  const child = spawn(command, args, { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  child.on('exit', (code, signal) => {
    if (code && code !== 0) console.error(`${name} exited with ${code ?? signal}`);
  });
  children.push(child);
  return child;
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export function killAll(): void {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * When the bench is interrupted (Ctrl-C, SIGTERM, SIGHUP) or its output is closed (`| head`): kills the child
 * processes, runs `cleanUp` (stop the embedded PostgreSQL, remove its directory) and exits. The embedded cluster
 * runs detached, in its own process group, so an interrupted bench used to leave it running with its data in /tmp.
 * Returns `cleanUp` made to run once: the bench's own `finally` calls it too, and waits for the same run.
 */
export function cleanUpWhenInterrupted(cleanUp: () => Promise<void>): () => Promise<void> {
  let cleaning: Promise<void> | undefined;
  const cleanUpOnce = () => (cleaning ??= cleanUp());
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    killAll();
    cleanUpOnce()
      .catch((error: unknown) => console.error('cleaning up after the interruption failed:', error))
      .finally(() => {
        killAll(); // the bench went on while cleanUp waited, and may have started another child
        process.exit(code);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => exit(130));
  // Node ignores SIGPIPE: a closed stdout shows up as EPIPE on the next write.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => exit(error.code === 'EPIPE' ? 0 : 1));
  return cleanUpOnce;
}

/**
 * autocannon in its own process; `rate` caps requests per second over all connections (0: as fast as it can).
 * Several URLs (paths on one server) are requested in random order.
 */
export function load(url: string | readonly string[], connections: number, seconds: number, rate = 0): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const urls = typeof url === 'string' ? url : url.join(',');
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load.ts', urls, String(connections), String(seconds), String(rate)], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`load generator exited ${code}`))));
  });
}

export async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(url, { redirect: 'manual' });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The value below which `fraction` of the values fall (nearest rank). */
export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? NaN;
}

export function fmt(value: number, width: number): string {
  return Math.round(value).toString().padStart(width);
}

/**
 * The redirect parts' two servers, side by side: the bare node:http reference and qroute (built, in its own process)
 * on `databaseUrl`, each on a free port, both answering. qroute trusts the loopback proxy: the load generator
 * forwards each scanner's address (load.ts), as a proxy in front of qroute would.
 */
export async function startBareAndQroute(databaseUrl: string): Promise<{
  bare: ChildProcess;
  barePort: number;
  qroute: ChildProcess;
  qroutePort: number;
}> {
  const barePort = await freePort();
  const qroutePort = await freePort();
  const bare = start('bare', process.execPath, ['--import', 'tsx', 'scripts/bench/bare-server.ts', String(barePort)], {});
  const qroute = start('qroute', process.execPath, ['dist/src/main.js'], {
    DATABASE_URL: databaseUrl,
    WEBHOOK_SECRET_KEY: randomBytes(32).toString('base64'),
    PORT: String(qroutePort),
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'loopback',
  });
  await waitFor(`http://127.0.0.1:${barePort}/r/x`);
  await waitFor(`http://127.0.0.1:${qroutePort}/readyz`);
  return { bare, barePort, qroute, qroutePort };
}
