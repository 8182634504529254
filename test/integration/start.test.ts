import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../src/net.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../support/test-app.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// `npm start` builds first when dist/ or docs-dist/ is older than the sources (a minute on a loaded 2-core machine).
const TIMEOUT = { timeout: 240_000 };

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function portAcceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * systemd, Docker and most supervisors stop a service with SIGTERM to the process they started. When that is npm,
 * the node process of the service must get it and stop cleanly, not be left running without a parent.
 */
describe('npm start and npm run worker stop with the SIGTERM sent to npm', TIMEOUT, () => {
  let database: TestDatabase;
  const started: { npm: ChildProcess; pids: number[] }[] = [];

  useTestDatabase((created) => (database = created));
  afterEach(() => {
    // A failed test must not leave a server behind for the rest of the run.
    for (const { npm, pids } of started.splice(0)) {
      npm.kill('SIGKILL');
      for (const pid of pids) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  async function npmRun(script: 'start' | 'worker', port: number, ready: string) {
    let output = '';
    const npm = spawn('npm', ['run', script], {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        DATABASE_URL: database.connectionString,
        WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY.toString('base64'),
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const entry = { npm, pids: [] as number[] };
    started.push(entry);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      npm.once('close', (code, signal) => resolve({ code, signal })), // after its output, all of it, was read
    );
    for (const stream of [npm.stdout!, npm.stderr!]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await expect.poll(() => output.includes(ready) || npm.exitCode !== null, { timeout: 200_000, interval: 100 }).toBe(true);
    expect(npm.exitCode, output).toBeNull();
    // pino writes the pid of the process that logs: the node process of the service, not npm's.
    const line = output.split('\n').find((each) => each.includes(ready))!;
    const pid = (JSON.parse(line) as { pid: number }).pid;
    entry.pids.push(pid);
    return { npm, pid, exited, output: () => output };
  }

  it('npm start: the server answers /healthz, and after SIGTERM to npm it stops cleanly and frees its port', async () => {
    const port = await freePort();
    const service = await npmRun('start', port, 'qroute is listening');
    expect(service.pid).not.toBe(service.npm.pid);
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);

    service.npm.kill('SIGTERM');
    const exit = await service.exited;
    // npm waited for the server: by the time it exits, the server has run its shutdown and is gone.
    expect(service.output()).toContain('"msg":"stopped"');
    await expect.poll(() => isRunning(service.pid), { timeout: 30_000 }).toBe(false);
    expect(await portAcceptsConnections(port)).toBe(false);
    expect(exit, service.output()).toEqual({ code: 0, signal: null });
  });

  it('npm run worker: the standalone webhook worker stops cleanly after SIGTERM to npm', async () => {
    const service = await npmRun('worker', await freePort(), 'qroute webhook worker is running');
    expect(service.pid).not.toBe(service.npm.pid);

    service.npm.kill('SIGTERM');
    const exit = await service.exited;
    expect(service.output()).toContain('"msg":"worker stopped"');
    await expect.poll(() => isRunning(service.pid), { timeout: 30_000 }).toBe(false);
    expect(exit, service.output()).toEqual({ code: 0, signal: null });
  });
});
