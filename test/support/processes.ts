import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import { freePort } from '../../src/net.js';
import { TEST_WEBHOOK_SECRET_KEY } from './test-app.js';

const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ServiceProcess {
  child: ChildProcess;
  /** Set for servers: `http://127.0.0.1:<port>`. */
  origin: string | undefined;
  /** Everything the process wrote, for a failing test's message. */
  output(): string;
  alive(): boolean;
  kill(signal?: NodeJS.Signals): void;
}

/**
 * What `npm run build` made of `source` (a path under src/), to run with `node` as operators do; the global setup
 * builds dist/ when it is older than src/. Throws tsc's complaint instead when that build failed.
 */
export function builtEntry(source: string): string {
  const failure = inject('buildFailure');
  if (failure) throw new Error(failure);
  return path.join('dist', source.replace(/\.tsx?$/, '.js'));
}

/**
 * The real service as operators run it (`src/main.ts` built into dist/, or `src/worker.ts` for a standalone webhook worker), in a
 * process of its own against `databaseUrl`, with the test secret key and loopback webhooks allowed.
 */
export async function startServiceProcess(
  kind: 'server' | 'worker',
  databaseUrl: string,
  env: Record<string, string> = {},
  port?: number,
): Promise<ServiceProcess> {
  const listenPort = kind === 'server' ? (port ?? (await freePort())) : undefined;
  let output = '';
  const child = spawn(process.execPath, [builtEntry(kind === 'server' ? 'src/main.ts' : 'src/worker.ts')], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
      DATABASE_URL: databaseUrl,
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY.toString('base64'),
      LOG_LEVEL: 'info',
      ...(listenPort !== undefined && { PORT: String(listenPort) }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Request logs at info level add up under load: keep the tail, which is what explains a failure.
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => keep(Buffer.from(`\n[process exited: code ${code}, signal ${signal}]\n`)));
  const origin = listenPort === undefined ? undefined : `http://127.0.0.1:${listenPort}`;
  const started = kind === 'server' ? 'qroute is listening' : 'qroute webhook worker is running';
  const deadline = Date.now() + 30_000;
  while (!output.includes(started)) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind} did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    child,
    origin,
    output: () => output,
    alive: () => child.exitCode === null && child.signalCode === null,
    kill: (signal = 'SIGKILL') => child.kill(signal),
  };
}
