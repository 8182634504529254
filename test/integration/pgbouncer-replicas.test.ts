import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../../src/config.js';
import { createDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema/index.js';
import { freePort } from '../../src/net.js';
import { prepareScanBatch, type ScanEvent } from '../../src/redirect/scan-batch.js';
import { journalDirFor, ScanJournal } from '../../src/redirect/scan-journal.js';
import { createService, type Service } from '../../src/service.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { dashboardHttp } from '../support/dashboard.js';
import { createPerson, createTestCode, createTestTypedCode } from '../support/factories.js';
import { type ReplicatedCluster, replicatedClusterSkipReason, startReplicatedCluster } from '../support/replicated-cluster.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { CHANGE_NOTICE_TIMEOUT_MS, createTestAccount, TEST_WEBHOOK_SECRET_KEY, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * Issue 29's topology with real processes: qroute instances with DATABASE_URL on PgBouncer in transaction mode,
 * DATABASE_DIRECT_URL on the primary and DATABASE_READ_URL on a streaming replica (test/support/replicated-cluster.ts).
 */
const skipReason = replicatedClusterSkipReason();
if (skipReason) console.warn(skipReason);

const METRICS_TOKEN = 'metrics-token-for-the-cluster-test';
/** PgBouncer's server connections per database and user: fewer than the instances' pools ask for. */
const POOL_SIZE = 4;

interface ClusterApp extends Pick<TestApp, 'origin' | 'apiUrl' | 'box'> {
  service: Service;
}

describe.skipIf(skipReason !== undefined)('qroute on PgBouncer in transaction mode and a streaming replica', () => {
  let cluster: ReplicatedCluster;
  let receiver: WebhookReceiver;
  /** The primary directly, for the test's own checks and setup. */
  let primary: Database;
  /** Reads from a replica at most 3 s behind (probed every second); runs the webhook worker. */
  let a: ClusterApp;
  /** Reads from a replica up to 30 s behind (so a paused replica stays in use); no worker. */
  let b: ClusterApp;
  const apps: ClusterApp[] = [];

  async function startClusterApp(env: Record<string, string>, overrides: Partial<Config> = {}): Promise<ClusterApp> {
    const port = await freePort();
    const defaults = loadConfig({
      DATABASE_URL: cluster.pooledUrl,
      DATABASE_DIRECT_URL: cluster.directUrl,
      DATABASE_READ_URL: cluster.replicaUrl,
      ...env,
    });
    const config: Config = {
      ...defaults,
      port,
      siteUrl: `http://127.0.0.1:${port}`,
      validateResponses: true,
      logLevel: 'silent',
      webhookSecretKey: TEST_WEBHOOK_SECRET_KEY,
      allowPrivateWebhookUrls: true,
      metricsToken: METRICS_TOKEN,
      scanJournal: { ...defaults.scanJournal, dir: process.env.SCAN_JOURNAL_DIR ?? defaults.scanJournal.dir },
      ...overrides,
    };
    const box = new SecretBox(TEST_WEBHOOK_SECRET_KEY);
    const service = await createService(config, { role: 'server', box, host: '127.0.0.1', logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }) });
    const app = { service, origin: service.origin!, apiUrl: `${service.origin!}/api/v1`, box };
    apps.push(app);
    return app;
  }

  beforeAll(async () => {
    cluster = await startReplicatedCluster({ poolSize: POOL_SIZE });
    primary = createDatabase(cluster.directUrl, { logger: pino({ level: 'silent' }) });
    receiver = await startWebhookReceiver();
    a = await startClusterApp({ READ_REPLICA_MAX_LAG_SECONDS: '3' });
    b = await startClusterApp({ READ_REPLICA_MAX_LAG_SECONDS: '30' }, { webhookWorker: false });
  });

  afterAll(async () => {
    for (const app of apps.splice(0).reverse()) await app.service.stop(1_000);
    await receiver?.close();
    await primary?.destroy();
    await cluster?.destroy();
  });

  it('runs through PgBouncer in transaction mode, its server sessions carrying the timeouts as role settings', async () => {
    const [pool] = (await cluster.pgbouncerShow('POOLS')).filter((row) => row.database === databaseName());
    expect(pool?.pool_mode).toBe('transaction');
    const client = new pg.Client({ connectionString: cluster.pooledUrl });
    await client.connect();
    try {
      const { rows } = await client.query(`select name, setting from pg_settings where name in ('statement_timeout', 'idle_in_transaction_session_timeout') order by name`);
      expect(rows).toEqual([
        { name: 'idle_in_transaction_session_timeout', setting: '60000' },
        { name: 'statement_timeout', setting: '30000' },
      ]);
    } finally {
      await client.end();
    }
  });

  it('redirects, records every scan and sends signed webhooks through the pooler; a change on one instance is seen by the next scan on another', async () => {
    const owner = await createTestAccount(primary, a as unknown as TestApp);
    const { secret } = await setWebhook(primary, a.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
    const code = await createTestCode(owner, { url: 'https://example.com/before' });
    expect(await locationOf(b, code.slug)).toBe('https://example.com/before');

    const { response } = await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { url: 'https://example.com/after' } });
    expect(response.status).toBe(200);
    // Within the lookup cache's 10 s lifetime: the change travelled by NOTIFY on the direct connections.
    await expect.poll(() => locationOf(b, code.slug), { timeout: CHANGE_NOTICE_TIMEOUT_MS, interval: 50 }).toBe('https://example.com/after');

    await expect.poll(async () => (await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: code.id } } })).data?.data.scanCount, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(2);
    const scans = (await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: code.id } } })).data!.data.scanCount;
    const delivered = await receiver.waitFor(scans, 15_000);
    for (const request of delivered) expect(verifyServiceSignature(request.rawBody, request.headers['x-service-signature'], secret!)).toBe(true);
    expect(delivered.map((request) => JSON.parse(request.rawBody.toString()).qrCodeId)).toEqual(Array(scans).fill(code.id));
  });

  it('shares a few server connections among many client connections', async () => {
    const owner = await createTestAccount(primary, a as unknown as TestApp);
    await createTestCode(owner);
    // Each instance's pool opens connections to PgBouncer as the burst needs them; PgBouncer lends them its few.
    await Promise.all(Array.from({ length: 40 }, (_, n) => fetch(`${(n % 2 ? a : b).apiUrl}/qrcodes`, { headers: { authorization: `Bearer ${owner.apiKey}` } })
      .then((response) => expect(response.status).toBe(200))));
    const clients = (await cluster.pgbouncerShow('CLIENTS')).filter((row) => row.database === databaseName());
    const servers = (await cluster.pgbouncerShow('SERVERS')).filter((row) => row.database === databaseName());
    expect(servers.length).toBeLessThanOrEqual(POOL_SIZE);
    expect(clients.length).toBeGreaterThan(POOL_SIZE);
  });

  it('signs in to the dashboard and answers analytics from the replica, after a browser\'s own change from the primary', async () => {
    const person = await createPerson(primary);
    const code = await createTestTypedCode(primary, person, { type: 'URL', name: 'Replica poster', content: { url: 'https://example.com/' } });
    for (let n = 0; n < 3; n++) expect(await scanStatus(a, code.slug)).toBe(302);
    await expect.poll(async () => (await primary.selectFrom('qr_codes').select('scan_count').where('id', '=', code.id).executeTakeFirst())?.scan_count).toBe(3);
    await cluster.waitForReplay();

    // Signing in is a write: the next pages read the primary, so nothing the person just did is missing.
    const http = await dashboardHttp(a, person);
    const ownWrites = await readsTo(a, 'own_recent_write');
    expect((await http.get('/analytics')).status).toBe(200);
    expect(await readsTo(a, 'own_recent_write')).toBeGreaterThan(ownWrites);

    // Past READ_REPLICA_MAX_LAG_SECONDS (+1 s) after it, pages read the replica.
    const fromReplica = await readsTo(a, 'replica');
    await expect.poll(async () => {
      const page = await http.get(`/codes/${code.id}/analytics`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Replica poster');
      return readsTo(a, 'replica');
    }, { timeout: 10_000, interval: 250 }).toBeGreaterThan(fromReplica);
    expect(await metric(a, 'qroute_read_replica_usable', { replica: replicaLabel() })).toBe(1);
    // The other lists and exports read it too.
    const pages = ['/codes', '/designs', '/imports', '/imports/export.csv', '/api-and-webhooks/deliveries', `/codes/${code.id}/scans.csv`];
    await expect.poll(async () => {
      const before = await readsTo(a, 'replica');
      for (const page of pages) expect((await http.get(page)).status, page).toBe(200);
      return (await readsTo(a, 'replica')) - before;
    }, { timeout: 15_000 }).toBeGreaterThanOrEqual(pages.length);
  });

  it('reads from the primary while the replica is stopped, and from the replica again once it is back', async () => {
    const person = await createPerson(primary);
    const http = await dashboardHttp(a, person);
    await cluster.stopReplica();
    try {
      await expect.poll(() => metric(a, 'qroute_read_replica_up', { replica: replicaLabel() }), { timeout: 10_000 }).toBe(0);
      // The pages answer all along: first from the primary for the sign-in's sake, then because no replica is usable.
      const before = await readsTo(a, 'no_usable_replica');
      await expect.poll(async () => {
        expect((await http.get('/analytics')).status).toBe(200);
        return readsTo(a, 'no_usable_replica');
      }, { timeout: 10_000, interval: 250 }).toBeGreaterThan(before);
    } finally {
      await cluster.startReplica();
    }
    await expect.poll(() => metric(a, 'qroute_read_replica_usable', { replica: replicaLabel() }), { timeout: 15_000 }).toBe(1);
  });

  it('stops reading from a replica whose replay is paused once it is further behind than the limit', async () => {
    const owner = await createTestAccount(primary, a as unknown as TestApp);
    await cluster.waitForReplay();
    await expect.poll(() => metric(a, 'qroute_read_replica_usable', { replica: replicaLabel() }), { timeout: 10_000 }).toBe(1);
    await cluster.pauseReplay();
    try {
      // Written on the primary after the pause: the replica does not have it, and soon falls past a's 3 s limit.
      const code = await createTestCode(owner, { name: 'Made while paused' });
      await expect.poll(() => metric(a, 'qroute_read_replica_usable', { replica: replicaLabel() }), { timeout: 10_000 }).toBe(0);
      expect(await metric(a, 'qroute_read_replica_lag_seconds', { replica: replicaLabel() })).toBeGreaterThan(3);
      // b allows 30 s: the replica is still in use there, and lacks the code. Its scans list still answers,
      // asking the primary once the replica says 404.
      expect(await metric(b, 'qroute_read_replica_usable', { replica: replicaLabel() })).toBe(1);
      const retried = await readsTo(b, 'retried_on_primary');
      const response = await fetch(`${b.apiUrl}/qrcodes/${code.id}/scans`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
      expect(response.status).toBe(200);
      expect(await readsTo(b, 'retried_on_primary')).toBe(retried + 1);
    } finally {
      await cluster.resumeReplay();
    }
    await expect.poll(() => metric(a, 'qroute_read_replica_usable', { replica: replicaLabel() }), { timeout: 10_000 }).toBe(1);
  });

  it('replays a scan journal left before PgBouncer was put in front: the journal belongs to the primary, not to the pooler', async () => {
    const owner = await createTestAccount(primary, a as unknown as TestApp);
    const code = await createTestCode(owner, { name: 'Journaled before the pooler' });
    // What an instance with DATABASE_URL on the primary left after an outage: one batch, journaled, never committed.
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-journal-'));
    const left = await ScanJournal.open({ dir: journalDirFor(root, cluster.directUrl), maxBytes: 1024 * 1024 }, pino({ level: 'silent' }));
    const scan: ScanEvent = {
      codeId: code.id, accountId: owner.accountId, at: new Date(), device: 'mobile', os: 'iOS', browser: 'Mobile Safari',
      destinationUrl: 'https://example.com/', referrerHost: 'left.journal.test', country: null, region: null, city: null, language: null, visitor: null, bot: false,
    };
    expect(await left.append([prepareScanBatch([scan])])).toBe(true);
    await left.close();
    try {
      // Now with DATABASE_URL on PgBouncer and DATABASE_DIRECT_URL on the primary.
      const restarted = await startClusterApp({}, { scanJournal: { dir: root, maxBytes: 1024 * 1024 } });
      await expect.poll(async () => (await primary.selectFrom('scans').select('referrer_host').where('qr_code_id', '=', code.id).execute()).map((row) => row.referrer_host), { timeout: 10_000 })
        .toEqual(['left.journal.test']);
      await restarted.service.stop(1_000);
      apps.splice(apps.indexOf(restarted), 1);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  /** The database PgBouncer's rows name: the pooled URL's. */
  function databaseName(): string {
    return new URL(cluster.pooledUrl).pathname.slice(1);
  }

  function replicaLabel(): string {
    const url = new URL(cluster.replicaUrl);
    return `${url.hostname}:${url.port}`;
  }
});

async function locationOf(app: Pick<TestApp, 'origin'>, slug: string): Promise<string | null> {
  const response = await fetch(`${app.origin}/r/${slug}`, { redirect: 'manual', headers: { 'user-agent': IPHONE_SAFARI } });
  expect(response.status).toBe(302);
  return response.headers.get('location');
}

async function scanStatus(app: Pick<TestApp, 'origin'>, slug: string): Promise<number> {
  return (await fetch(`${app.origin}/r/${slug}`, { redirect: 'manual', headers: { 'user-agent': IPHONE_SAFARI } })).status;
}

/** Reads counted with `reason` in the app's qroute_replica_reads_total. */
async function readsTo(app: Pick<TestApp, 'origin'>, reason: string): Promise<number> {
  return (await metric(app, 'qroute_replica_reads_total', { reason })) ?? 0;
}

/** One sample of a metric from GET /metrics, or undefined when absent. */
async function metric(app: Pick<TestApp, 'origin'>, name: string, labels: Record<string, string>): Promise<number | undefined> {
  const text = await (await fetch(`${app.origin}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const selector = `${name}{${Object.entries(labels).map(([key, value]) => `${key}="${value}"`).join(',')}}`;
  const line = text.split('\n').find((each) => each.startsWith(`${selector} `));
  return line === undefined ? undefined : Number(line.slice(selector.length + 1));
}
