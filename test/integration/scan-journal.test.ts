import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openGeoLookup } from '../../src/audience/geo-lookup.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createRedirect, type Redirect } from '../../src/redirect/index.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { journalDirFor, ScanJournal } from '../../src/redirect/scan-journal.js';
import { DEFAULT_SCAN_RECORDER_OPTIONS, ScanRecorder } from '../../src/redirect/scan-recorder.js';
import { DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/database.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { startServiceProcess, type ServiceProcess } from '../support/processes.js';
import { IPHONE_SAFARI, scan } from '../support/scan.js';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

// These tests freeze and stop PostgreSQL, so the file runs a cluster of its own.
let cluster: OwnCluster;
let app: TestApp;
let owner: TestAccount;
const processes: ServiceProcess[] = [];
const redirects: Redirect[] = [];
const journalDirs: string[] = [];
const execFile = promisify(execFileCallback);
const silent = pino({ level: 'silent' });
const METRICS_TOKEN = 'journal-test-metrics-token';

beforeAll(async () => {
  cluster = await startOwnCluster();
  app = await startTestApp({ db: cluster.db, connectionString: cluster.connectionString });
  owner = await createTestAccount(cluster.db, app);
  // A webhook (never reached: the servers run no worker), so every scan must also leave its outbox row.
  await setWebhook(cluster.db, app.box, { accountId: owner.accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
});
afterEach(async () => {
  for (const child of processes.splice(0)) child.kill();
  await Promise.all(redirects.splice(0).map((redirect) => redirect.stop(1_000)));
  await cluster.thaw();
  await cluster.start();
});
afterAll(async () => {
  await app?.close();
  await cluster?.destroy();
  await Promise.all(journalDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

async function journalDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-journal-'));
  journalDirs.push(dir);
  return dir;
}

const createCode = (name: string) => createTestCode(owner, { name });

/**
 * A server process with its journal under `root` (in this database's subdirectory, `dir`), no webhook worker,
 * and a short commit timeout.
 */
async function serverWithJournal(root: string, env: Record<string, string> = {}): Promise<ServiceProcess> {
  const server = await startServiceProcess('server', cluster.connectionString, {
    SCAN_JOURNAL_DIR: root, SCAN_COMMIT_TIMEOUT_MS: '300', WEBHOOK_WORKER: 'false', METRICS_TOKEN: METRICS_TOKEN, ...env,
  });
  processes.push(server);
  return server;
}

/**
 * The next start, in this process: the short-link part as the server makes it (src/main.ts), with its journal in
 * `dir` (a second server process would double the test's time for the same code path).
 */
async function startRedirectWithJournal(dir: string): Promise<Redirect> {
  const redirect = createRedirect({
    db: cluster.db, directConnectionString: cluster.connectionString, logger: silent, journal: { dir, maxBytes: 1024 * 1024 },
    geo: openGeoLookup({ logger: silent }), trustProxy: false,
  });
  redirects.push(redirect);
  await redirect.start();
  return redirect;
}

/** `count` scans, `clients` at a time, each with its own Referer host; returns the hosts of those answered 302. */
async function scanMarked(origin: string, slug: string, count: number, clients = 8): Promise<string[]> {
  const answered: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let n = next++; n < count; n = next++) {
        const marker = `s${n}.journal.test`;
        const res = await fetch(`${origin}/r/${slug}`, {
          redirect: 'manual',
          headers: { 'User-Agent': IPHONE_SAFARI, Referer: `https://${marker}/` },
          signal: AbortSignal.timeout(10_000),
        });
        if (res.status === 302) answered.push(marker);
      }
    }),
  );
  return answered;
}

async function recordedMarkers(codeId: string): Promise<string[]> {
  const rows = await cluster.db.selectFrom('scans').select('referrer_host').where('qr_code_id', '=', codeId).execute();
  return rows.map((row) => row.referrer_host ?? '').filter((host) => host.endsWith('.journal.test'));
}

/** Every answered scan has exactly one row, its counter and its webhook outbox row. */
async function expectRecordedOnce(code: { id: string }, answered: string[]): Promise<void> {
  await expect
    .poll(async () => {
      const recorded = new Set(await recordedMarkers(code.id));
      return answered.filter((marker) => !recorded.has(marker));
    }, { timeout: 20_000, interval: 200 })
    .toEqual([]);
  const recorded = await recordedMarkers(code.id);
  expect(recorded.length).toBe(answered.length);
  const rows = await cluster.db.selectFrom('scans').select('group_id').where('qr_code_id', '=', code.id).execute();
  expect((await scanCountsOf(cluster.db, code.id)).scans).toBe(rows.length);
  const deliveries = await cluster.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', code.id).execute();
  expect(deliveries).toHaveLength(rows.length);
}

async function journalFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => name.endsWith('.journal'));
}

describe('scans answered while PostgreSQL is frozen, then kill -9 of the server', () => {
  it('are written by the next start from the journal: each once, with its webhook outbox row', async () => {
    const root = await journalDir();
    const dir = journalDirFor(root, cluster.connectionString);
    const code = await createCode('Frozen poster');
    const server = await serverWithJournal(root);
    expect(await scan({ origin: server.origin! }, code.slug)).toBe(302); // cached, and committed
    const readMetrics = async () => (await fetch(`${server.origin}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
    const journaled = (metrics: string) => Number(/^qroute_scans_journaled_total (\d+)$/m.exec(metrics)?.[1]);
    // On a loaded machine the scan above may have outrun its commit timeout and been journaled too: count from here.
    const before = journaled(await readMetrics());

    await cluster.freeze();
    const answered = await scanMarked(server.origin!, code.slug, 40);
    expect(answered).toHaveLength(40);
    const metrics = await readMetrics();
    expect(journaled(metrics) - before).toBe(40);
    expect(metrics).toMatch(/^qroute_scans_unjournaled_total 0$/m);
    expect(metrics).toMatch(/^qroute_scan_journal_bytes [1-9]\d*$/m);
    server.kill('SIGKILL');
    await expect.poll(() => server.alive()).toBe(false);
    expect(await journalFiles(dir)).not.toEqual([]);
    await cluster.thaw();

    const restarted = await startRedirectWithJournal(dir);
    await expectRecordedOnce(code, answered);
    await expect.poll(() => journalFiles(dir)).toEqual([]);
    expect(restarted.recorder.journalStats?.replayedScans).toBeGreaterThanOrEqual(40);
  }, 60_000);
});

describe('SIGTERM while PostgreSQL is stopped for longer than SHUTDOWN_GRACE_MS', () => {
  it('exits 0 leaving the unwritten scans in the journal, and the next start writes them', async () => {
    const root = await journalDir();
    const dir = journalDirFor(root, cluster.connectionString);
    const code = await createCode('Stopped poster');
    const server = await serverWithJournal(root, { SHUTDOWN_GRACE_MS: '300' });
    expect(await scan({ origin: server.origin! }, code.slug)).toBe(302);

    await cluster.stop();
    const answered = await scanMarked(server.origin!, code.slug, 40);
    expect(answered).toHaveLength(40);
    const exited = new Promise<number | null>((resolve) => server.child.once('exit', (exitCode) => resolve(exitCode)));
    server.kill('SIGTERM');
    expect(await exited, server.output()).toBe(0);
    expect(server.output()).toContain('in the journal');
    expect(server.output()).not.toContain('"lost"');
    await cluster.start();

    await startRedirectWithJournal(dir);
    await expectRecordedOnce(code, answered);
  }, 60_000);
});

describe('the scan journal file', () => {
  function scanOf(code: { id: string }, referrerHost: string): ScanEvent {
    return {
      codeId: code.id, accountId: owner.accountId, at: new Date(), device: 'mobile', os: 'iOS', browser: 'Mobile Safari',
      destinationUrl: 'https://example.com/', referrerHost, country: null, region: null, city: null, language: null, visitor: null, bot: false,
    };
  }

  it('skips a record torn by a crash mid-append, and replays the whole ones once, even one already committed', async () => {
    const dir = await journalDir();
    const code = await createCode('Torn poster');
    const batches = ['a', 'b', 'c'].map((name) => prepareScanBatch([scanOf(code, `${name}1.journal.test`), scanOf(code, `${name}2.journal.test`)]));
    const crashed = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    for (const batch of batches) expect(await crashed.append([batch])).toBe(true);
    await crashed.close(); // as a process that stopped with the batches unwritten
    // The third append was cut short: its header and half its payload reached the disk.
    const [file] = await journalFiles(dir);
    const { size } = await fs.stat(path.join(dir, file!));
    await fs.truncate(path.join(dir, file!), size - 40);
    await writeScanBatch(cluster.db, batches[0]!); // committed before the crash, answer lost

    const recorder = new ScanRecorder(cluster.db, silent);
    recorder.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    await expect.poll(() => journalFiles(dir)).toEqual([]);
    expect((await recordedMarkers(code.id)).sort()).toEqual(['a1.journal.test', 'a2.journal.test', 'b1.journal.test', 'b2.journal.test']);
    expect((await scanCountsOf(cluster.db, code.id)).scans).toBe(4);
    expect(recorder.journalStats).toMatchObject({ tornRecords: 1, replayedScans: 4 });
    await recorder.stop(1_000);
  });

  it('keeps journaled scans past SCAN_MEMORY_LIMIT in the journal alone, and writes them from it once memory is empty', async () => {
    const dir = await journalDir();
    const code = await createCode('Crowded poster');
    await cluster.stop();
    const db = cluster.pool({ ...DEFAULT_DATABASE_TIMEOUTS, connectMs: 500 });
    const recorder = new ScanRecorder(db, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, maxBuffered: 10, maxBatch: 5, retryDelayMs: 100, commitTimeoutMs: 500 });
    recorder.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    const hosts = Array.from({ length: 30 }, (_, n) => `m${n}.journal.test`);
    await Promise.all(hosts.map((host) => recorder.record(scanOf(code, host))));
    expect(recorder.stats.evicted).toBeGreaterThan(0);
    expect(recorder.stats.dropped).toBe(0);

    await cluster.start();
    await expect.poll(async () => (await recordedMarkers(code.id)).length, { timeout: 20_000 }).toBe(30);
    await expect.poll(() => recorder.journalStats?.bytes).toBe(0);
    expect((await recordedMarkers(code.id)).sort()).toEqual([...hosts].sort());
    expect((await scanCountsOf(cluster.db, code.id)).scans).toBe(30);
    await recorder.stop(1_000);
  });

  it('journals scans answered without waiting because too many already wait (maxWaiting), and empties itself once they are written', async () => {
    const dir = await journalDir();
    const code = await createCode('Queue poster');
    const recorder = new ScanRecorder(cluster.db, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, maxWaiting: 0 });
    recorder.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    await Promise.all(Array.from({ length: 12 }, (_, n) => recorder.record(scanOf(code, `q${n}.journal.test`))));
    expect(recorder.journalStats?.journaledScans).toBe(12);
    await expect.poll(async () => (await recordedMarkers(code.id)).length).toBe(12);
    await expect.poll(() => recorder.journalStats?.bytes).toBe(0);
    await recorder.stop(1_000);
  });

  it('lives in a directory of its database, so instances of two databases sharing DATA_DIR never replay into the wrong one', () => {
    const root = '/srv/qroute/journal';
    const of = (url: string | undefined) => journalDirFor(root, url);
    expect(of(undefined)).toBe('/srv/qroute/journal/embedded');
    expect(of('postgres://a:secret@db.internal:5432/qroute')).toBe(of('postgres://b:other@db.internal/qroute?sslmode=require'));
    expect(of('postgres://a:secret@db.internal:5432/qroute')).not.toBe(of('postgres://a:secret@db.internal:5432/qroute_staging'));
    expect(of('postgres://a:secret@db.internal:5432/qroute')).not.toBe(of('postgres://a:secret@db.internal:5433/qroute'));
    expect(path.dirname(of('postgres://db.internal/qroute'))).toBe(root);
  });

  /** This process's pid namespace and boot, as an owner file records them. */
  async function ownPidSpace() {
    return { pidNamespace: await fs.readlink('/proc/self/ns/pid'), bootId: (await fs.readFile('/proc/sys/kernel/random/boot_id', 'utf8')).trim() };
  }

  /** A journal file in the format written before records were stamped with their append time ("QSJ1"). */
  function unstampedRecord(batch: { id: string; scans: readonly ScanEvent[] }): Buffer {
    const scans = batch.scans.map((s) => [s.codeId, s.accountId, s.at.getTime(), s.device, s.os, s.browser, s.destinationUrl, s.referrerHost, s.bot ? 1 : 0]);
    const payload = Buffer.from(JSON.stringify({ id: batch.id, scans }));
    const header = Buffer.alloc(12);
    header.writeUInt32LE(0x314a5351, 0);
    header.writeUInt32LE(payload.length, 4);
    header.writeUInt32LE(crc32(payload), 8);
    return Buffer.concat([header, payload]);
  }

  it('sets aside records older than the scan_batches lifetime instead of replaying them, so a committed batch whose id was pruned is not counted twice', async () => {
    const dir = await journalDir();
    const code = await createCode('Old journal poster');
    const day = 24 * 3_600_000;
    let clock = Date.now() - 29 * day;
    const crashed = await ScanJournal.open({ dir, maxBytes: 1024 * 1024, now: () => clock }, silent);
    const old = prepareScanBatch([scanOf(code, 'old1.journal.test'), scanOf(code, 'old2.journal.test')]);
    expect(await crashed.append([old])).toBe(true);
    // Committed before its process was killed; 29 days later (a SIGTERM during an outage, an instance started
    // again only now) pruning has deleted its id.
    await writeScanBatch(cluster.db, old);
    await sql`delete from scan_batches where id = ${old.id}`.execute(cluster.db);
    clock = Date.now();
    expect(await crashed.append([prepareScanBatch([scanOf(code, 'new1.journal.test')])])).toBe(true);
    await crashed.close();
    // A file written before records were stamped is aged by its mtime: one recent is replayed, one old set aside.
    const unstamped = (name: string) => prepareScanBatch([scanOf(code, `${name}.journal.test`)]);
    await fs.writeFile(path.join(dir, 'v1recent.journal'), unstampedRecord(unstamped('v1recent')));
    await fs.writeFile(path.join(dir, 'v1old.journal'), unstampedRecord(unstamped('v1old')));
    const longAgo = new Date(Date.now() - 29 * day);
    await fs.utimes(path.join(dir, 'v1old.journal'), longAgo, longAgo);

    const recorder = new ScanRecorder(cluster.db, silent);
    recorder.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    await expect.poll(() => journalFiles(dir)).toEqual([]);
    expect((await recordedMarkers(code.id)).sort()).toEqual(['new1.journal.test', 'old1.journal.test', 'old2.journal.test', 'v1recent.journal.test']);
    expect((await scanCountsOf(cluster.db, code.id)).scans).toBe(4);
    expect(recorder.journalStats).toMatchObject({ expiredScans: 3, replayedScans: 2 });
    // Kept for the operator, each record once, in the journal's format.
    const expired = (await fs.readdir(dir)).filter((name) => name.endsWith('.expired'));
    expect(expired).toHaveLength(2);
    const setAside = await Promise.all(expired.map(async (name) => (await fs.readFile(path.join(dir, name))).toString('latin1')));
    expect(setAside.join('').match(/journal\.test/g)).toHaveLength(3);
    await recorder.stop(1_000);
  });

  it('replays a journaled batch the database refuses part by part, dropping only the scan at fault', async () => {
    const dir = await journalDir();
    const code = await createCode('Refused journal poster');
    const hosts = Array.from({ length: 7 }, (_, n) => `r${n}.journal.test`);
    // A NUL character: PostgreSQL text cannot hold it (22P05), whatever batch it is in.
    const refused = { ...scanOf(code, 'bad.journal.test'), device: 'mobile\u0000' };
    const crashed = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    expect(await crashed.append([prepareScanBatch([...hosts.slice(0, 3).map((host) => scanOf(code, host)), refused, ...hosts.slice(3).map((host) => scanOf(code, host))])])).toBe(true);
    await crashed.close();

    const recorder = new ScanRecorder(cluster.db, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, retryDelayMs: 20 });
    recorder.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    await expect.poll(() => journalFiles(dir), { timeout: 10_000 }).toEqual([]);
    expect((await recordedMarkers(code.id)).sort()).toEqual([...hosts].sort());
    expect(recorder.stats.dropped).toBe(1);
    expect(recorder.journalStats?.replayedScans).toBe(7);
    await recorder.stop(1_000);
  });

  it('stops within its grace while a replay write hangs on a frozen database, leaving the file to the next start', async () => {
    const dir = await journalDir();
    const code = await createCode('Frozen replay poster');
    const crashed = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    expect(await crashed.append([prepareScanBatch([scanOf(code, 'frozen-replay.journal.test')])])).toBe(true);
    await crashed.close();
    await cluster.freeze();
    // A commit timeout far past the grace: the write hangs until the pool's query timeout.
    const recorder = new ScanRecorder(cluster.db, silent, { ...DEFAULT_SCAN_RECORDER_OPTIONS, commitTimeoutMs: 20_000 });
    const journal = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    recorder.useJournal(journal);
    await expect.poll(async () => (await journalFiles(dir)).some((name) => name.startsWith(`${journal.token}.claimed-`))).toBe(true);

    const stopping = performance.now();
    expect(await recorder.stop(300)).toBe(0);
    expect(performance.now() - stopping).toBeLessThan(5_000); // far short of the write's 20 s hang
    await cluster.thaw();
    await expect.poll(() => fs.access(path.join(dir, `${journal.token}.owner`)).then(() => true, () => false)).toBe(false);
    const next = new ScanRecorder(cluster.db, silent);
    next.useJournal(await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent));
    await expect.poll(() => recordedMarkers(code.id), { timeout: 10_000 }).toEqual(['frozen-replay.journal.test']);
    await next.stop(1_000);
  });

  it('warns at start of journal files of stopped processes in the directory of another database URL, naming them', async () => {
    const root = await journalDir();
    const lines: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
    await fs.mkdir(path.join(root, 'db-0123456789abcdef'));
    await fs.writeFile(path.join(root, 'db-0123456789abcdef', 'left.journal'), 'x');
    // A live instance of another database sharing the root: its own to replay, nothing to warn of.
    await fs.mkdir(path.join(root, 'db-fedcba9876543210'));
    await fs.writeFile(path.join(root, 'db-fedcba9876543210', 'live.journal'), 'x');
    await fs.writeFile(path.join(root, 'db-fedcba9876543210', 'live.owner'), '{}');

    const journal = await ScanJournal.open({ dir: journalDirFor(root, 'postgres://127.0.0.1:5432/qroute'), maxBytes: 1024 * 1024 }, logger);
    await journal.close();
    const warnings = lines.map((line) => JSON.parse(line) as { dir?: string; files?: string[] }).filter((entry) => entry.files);
    expect(warnings).toEqual([expect.objectContaining({ dir: path.join(root, 'db-0123456789abcdef'), files: ['left.journal'] })]);
  });

  it('judges an owner in another pid namespace or boot by its heartbeat alone, though it has this host\'s name', async () => {
    const dir = await journalDir();
    const code = await createCode('Namespace poster');
    const ours = await ownPidSpace();
    const claimer = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    // Containers with the host's network: the same host name, pids of their own. No such pid runs here.
    const owners = { otherNamespace: { ...ours, pidNamespace: 'pid:[1]' }, otherBoot: { ...ours, bootId: 'another-boot' } };
    for (const [name, space] of Object.entries(owners)) {
      await fs.writeFile(path.join(dir, `${name}.owner`), JSON.stringify({ pid: 4_194_000, host: os.hostname(), ...space, startTime: '123' }));
      await fs.writeFile(path.join(dir, `${name}.journal`), unstampedRecord(prepareScanBatch([scanOf(code, `${name}.journal.test`)])));
    }
    expect(await claimer.claimAbandoned()).toEqual([]); // renewed just now: alive, whatever its pid says here
    const anHourAgo = new Date(Date.now() - 3_600_000);
    for (const name of Object.keys(owners)) await fs.utimes(path.join(dir, `${name}.owner`), anHourAgo, anHourAgo);
    expect(await claimer.claimAbandoned()).toHaveLength(2);
    await claimer.close();
  });

  it('is never claimed from a live process sharing the directory, and is claimed once that process has stopped', async () => {
    const dir = await journalDir();
    const code = await createCode('Shared directory poster');
    const first = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    const second = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
    expect(await first.append([prepareScanBatch([scanOf(code, 'live.journal.test')])])).toBe(true);
    expect(await second.claimAbandoned()).toEqual([]);
    // Alive on this host, though its owner file was not renewed for an hour (an event loop stalled): still its own.
    const anHourAgo = new Date(Date.now() - 3_600_000);
    await fs.utimes(path.join(dir, `${first.token}.owner`), anHourAgo, anHourAgo);
    expect(await second.claimAbandoned()).toEqual([]);
    expect(await journalFiles(dir)).toEqual([`${first.token}.journal`]);
    // A pid since reused by another process (this one: running, with another start time) owns nothing.
    await fs.writeFile(path.join(dir, 'reused.owner'), JSON.stringify({ pid: process.pid, host: os.hostname(), ...(await ownPidSpace()), startTime: '1' }));
    await fs.copyFile(path.join(dir, `${first.token}.journal`), path.join(dir, 'reused.journal'));
    expect(await second.claimAbandoned()).toHaveLength(1);

    await first.close(); // stopped with a batch unwritten
    const claimed = await second.claimAbandoned();
    expect(claimed).toHaveLength(2); // the reused pid's claim, from before, and this one
    expect(path.basename(claimed[0]!)).toMatch(new RegExp(`^${second.token}\\.claimed-`));
    expect([...(await second.read(claimed[0]!)).batches]).toHaveLength(1);
    expect(await first.claimAbandoned()).toEqual([]); // a rename succeeds once: nobody else gets it
    await second.close();
  });

  // A real full disk: a tmpfs of 64 KB (mounting needs root).
  it.runIf(process.getuid?.() === 0)('on a full disk refuses batches without throwing or tearing the file, and takes them again once there is room', async () => {
    const dir = await journalDir();
    await execFile('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir]);
    try {
      const code = await createCode('Full disk poster');
      const batch = () => prepareScanBatch(Array.from({ length: 100 }, (_, n) => scanOf(code, `f${n}.journal.test`)));
      const journal = await ScanJournal.open({ dir, maxBytes: 1024 * 1024 }, silent);
      expect(await journal.append([batch()])).toBe(true);
      const filler = path.join(dir, 'filler');
      await fs.writeFile(filler, Buffer.alloc(64 * 1024)).catch((error: NodeJS.ErrnoException) => expect(error.code).toBe('ENOSPC'));
      expect(await journal.append([batch()])).toBe(false);
      expect(journal.stats).toMatchObject({ journaledScans: 100, unjournaledScans: 100 });
      await fs.rm(filler);
      expect(await journal.append([batch()])).toBe(true);
      await journal.close();
      const [file] = await journalFiles(dir);
      const read = await journal.read(path.join(dir, file!));
      expect([...read.batches]).toHaveLength(2);
      expect(read.tornRecords).toBe(0);
    } finally {
      await execFile('umount', ['--lazy', dir]);
    }
  });

  it('takes no batch past SCAN_JOURNAL_MAX_MB: it says so, and counts the scans it could not keep', async () => {
    const dir = await journalDir();
    const code = await createCode('Bounded poster');
    const small = await ScanJournal.open({ dir, maxBytes: 600 }, silent);
    const batch = () => prepareScanBatch([scanOf(code, 'x.journal.test'), scanOf(code, 'y.journal.test')]);
    expect(await small.append([batch()])).toBe(true);
    expect(await small.append([batch()])).toBe(false);
    expect(small.stats).toMatchObject({ journaledScans: 2, unjournaledScans: 2 });
    await small.close();
  });
});
