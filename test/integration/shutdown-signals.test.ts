import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createDatabase } from '../../src/db/database.js';
import { startEmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { startServiceProcess, type ServiceProcess } from '../support/processes.js';
import { IPHONE_SAFARI } from '../support/scan.js';

const execFile = promisify(execFileCallback);
const silent = pino({ level: 'silent' });
let dataDir: string | undefined;
let server: ServiceProcess | undefined;
let frozen: number[] = [];

afterAll(async () => {
  // A failed run must not leave a stopped (or running) PostgreSQL behind.
  server?.kill('SIGKILL');
  for (const pid of frozen) signal(pid, 'SIGCONT');
  if (dataDir) {
    await (await startEmbeddedPostgres(dataDir, silent).catch(() => undefined))?.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
});

function signal(pid: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** The embedded cluster's postmaster and its children, from `DATA_DIR/pg/postmaster.pid`. */
async function clusterPids(dir: string): Promise<number[]> {
  const postmaster = Number((await fs.readFile(path.join(dir, 'pg', 'postmaster.pid'), 'utf8')).split('\n')[0]);
  const { stdout } = await execFile('ps', ['-o', 'pid=', '--ppid', String(postmaster)]);
  const children = stdout.split('\n').map((line) => Number(line.trim())).filter((pid) => pid > 0);
  return [postmaster, ...children];
}

describe('two SIGINTs in quick succession (Ctrl-C under npm start)', () => {
  it('stop the server once: it writes the scans it holds, stops the embedded PostgreSQL, and exits 0', async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-signals-'));
    // The server's own embedded cluster: DATA_DIR, no DATABASE_URL.
    server = await startServiceProcess('server', '', { DATA_DIR: dataDir, SCAN_COMMIT_TIMEOUT_MS: '300' });
    const embedded = await startEmbeddedPostgres(dataDir, silent); // the running one, shared
    const db = createDatabase(embedded.localConnectionString(), { logger: silent });
    const account = await createAccount(db, { name: 'signals', plan: 'business' });
    const maker = await createApiKey(db, account.id);
    const { code } = await createQrCode(db, { accountId: account.id, name: 'Signal poster', destinationUrl: 'https://example.com/', actor: { kind: 'api_key', apiKeyId: maker.id } });
    await db.destroy();
    const scanOnce = () => fetch(`${server!.origin}/r/${code.slug}`, { redirect: 'manual', headers: { 'User-Agent': IPHONE_SAFARI }, signal: AbortSignal.timeout(10_000) });
    expect((await scanOnce()).status).toBe(302); // cached, and committed

    // Frozen, so the next scans are answered and held (journal and memory) rather than committed.
    frozen = await clusterPids(dataDir);
    for (const pid of frozen) signal(pid, 'SIGSTOP');
    const statuses = await Promise.all(Array.from({ length: 20 }, () => scanOnce().then((res) => res.status)));
    expect(statuses.every((status) => status === 302)).toBe(true);
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      server!.child.once('exit', (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal })),
    );
    server.kill('SIGINT');
    await expect.poll(() => server!.output()).toContain('shutting down');
    server.kill('SIGINT');
    for (const pid of frozen.splice(0)) signal(pid, 'SIGCONT');

    expect(await exited, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).toContain('already shutting down; signal ignored');
    const postmaster = (await clusterPids(dataDir).catch(() => []))[0];
    expect(postmaster === undefined || !signal(postmaster, 0), 'the embedded PostgreSQL is still running').toBe(true);
    expect(server.output()).not.toContain('"lost"');
    // Everything that holds a connection (the webhook worker's pool too) stopped before PostgreSQL did.
    expect(server.output()).not.toContain('terminating connection due to administrator command');

    const restarted = await startEmbeddedPostgres(dataDir, silent);
    const check = createDatabase(restarted.localConnectionString(), { logger: silent });
    try {
      expect((await scanCountsOf(check, code.id)).scans).toBe(21);
    } finally {
      await check.destroy();
      await restarted.stop();
    }
  }, 60_000);
});
