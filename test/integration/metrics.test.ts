import net from 'node:net';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/database.js';
import { createMetrics } from '../../src/metrics/index.js';
import { freePort } from '../../src/net.js';
import { listen, type RunningServer } from '../../src/server.js';
import { startServiceProcess, type ServiceProcess } from '../support/processes.js';
import type { TestDatabase } from '../support/database.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { createTestAccount, rawRequest, TEST_WEBHOOK_SECRET_KEY, type TestApp, useTestApp } from '../support/test-app.js';
import { scan } from '../support/scan.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { createTestCode, setTestRouting } from '../support/factories.js';

const TOKEN = 'metrics-token-for-tests-0123456789';

let database: TestDatabase;
let app: TestApp;
let unconfigured: TestApp;
let receiver: WebhookReceiver;

useTestApp(
  async (started) => {
    ({ database, app } = started);
    unconfigured = await started.startAnother({ webhookWorker: false });
  },
  { metricsToken: TOKEN },
  { tuning: { webhooks: { worker: { pollIntervalMs: 100 } } } },
);
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

function getMetrics(origin: string, authorization?: string): Promise<Response> {
  return fetch(`${origin}/metrics`, { headers: authorization === undefined ? {} : { Authorization: authorization } });
}

/**
 * The Prometheus text exposition format (0.0.4), line by line: `# HELP`/`# TYPE` comments, and samples
 * `name{label="value",...} value [timestamp]`. Throws on any line that is neither, or on a sample whose family
 * has no TYPE. Returns the samples keyed as `name{labels}` exactly as written.
 */
function parseExposition(text: string): Map<string, number> {
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
  // Values are what Go's ParseFloat reads (Prometheus parses with it): it takes NaN in any case, and prom-client
  // writes `Nan`.
  const VALUE = '(?:[-+]?(?:\\d+\\.?\\d*(?:[eE][-+]?\\d+)?|\\.\\d+(?:[eE][-+]?\\d+)?)|[Nn][Aa][Nn]|[-+]Inf)';
  const sample = new RegExp(`^(${NAME})(\\{(?:${LABEL}(?:,${LABEL})*)?\\})? (${VALUE})(?: -?\\d+)?$`);
  const help = new RegExp(`^# HELP (${NAME}) .*$`);
  const type = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
  const typed = new Map<string, string>();
  const samples = new Map<string, number>();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.split('\n')) {
    if (line === '' || help.test(line)) continue;
    const declared = type.exec(line);
    if (declared) {
      typed.set(declared[1]!, declared[2]!);
      continue;
    }
    const match = sample.exec(line);
    if (!match) throw new Error(`not a Prometheus text line: ${JSON.stringify(line)}`);
    const [, name, labels = '', value] = match;
    const family = typed.has(name!) ? name! : name!.replace(/_(bucket|sum|count)$/, '');
    if (!typed.has(family)) throw new Error(`sample without a TYPE: ${line}`);
    samples.set(`${name}${labels}`, Number(value));
  }
  return samples;
}

async function scrape(target: Pick<TestApp, 'origin'> = app): Promise<Map<string, number>> {
  const response = await getMetrics(target.origin, `Bearer ${TOKEN}`);
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

/** How much a sample grew between two scrapes (a sample not there yet counts as 0). */
function moved(before: Map<string, number>, after: Map<string, number>, key: string): number {
  const now = after.get(key);
  if (now === undefined) throw new Error(`no sample ${key} in ${[...after.keys()].filter((k) => k.startsWith(key.split('{')[0]!)).join(', ')}`);
  return now - (before.get(key) ?? 0);
}

describe('who may read /metrics', () => {
  it('answers only the METRICS_TOKEN bearer, 401 for a missing, wrong or differently shaped credential', async () => {
    const ok = await getMetrics(app.origin, `Bearer ${TOKEN}`);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    for (const authorization of [undefined, '', `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(0, -1)}`, 'Bearer ', `Basic ${TOKEN}`, TOKEN]) {
      const refused = await getMetrics(app.origin, authorization);
      expect(refused.status, `Authorization: ${authorization}`).toBe(401);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await refused.text()).not.toContain('qroute_');
    }
  });

  it('is not served at all without METRICS_TOKEN: 404 like any unknown path, token or not', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}`]) {
      const response = await getMetrics(unconfigured.origin, authorization);
      expect(response.status).toBe(404);
      expect(await response.text()).not.toContain('qroute_');
    }
  });
});

describe('what /metrics reports', () => {
  it('is valid Prometheus text with every documented family, pool gauges for both pools, and Node process metrics', async () => {
    const samples = await scrape();
    const names = new Set([...samples.keys()].map((key) => key.split('{')[0]!));
    for (const name of [
      'qroute_redirects_total',
      'qroute_redirect_duration_seconds_bucket',
      'qroute_scans_written_total',
      'qroute_scans_dropped_total',
      'qroute_scan_backlog',
      'qroute_scan_recorder_live',
      'qroute_scan_batch_size_count',
      'qroute_scan_batch_statements_total',
      'qroute_webhook_attempts_total',
      'qroute_webhook_outbox_due',
      'qroute_webhook_outbox_oldest_due_seconds',
      'qroute_webhook_outbox_read_success',
      'qroute_db_pool_connections',
      'qroute_db_pool_idle_connections',
      'qroute_db_pool_waiting_queries',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
    ]) {
      expect(names, name).toContain(name);
    }
    expect(samples.get('qroute_webhook_outbox_read_success')).toBe(1);
    expect(samples.get('qroute_scan_recorder_live')).toBe(1);
    expect(samples.has('qroute_db_pool_connections{pool="main"}')).toBe(true);
    expect(samples.has('qroute_db_pool_connections{pool="webhooks"}')).toBe(true);
  });

  it('moves with redirects, scans written, API calls by operationId and webhook deliveries', async () => {
    const owner = await createTestAccount(database.db, app);
    await setWebhook(database.db, app.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
    const before = await scrape();

    const code = await createTestCode(owner, { url: 'https://example.com/a' });
    const paused = await createTestCode(owner, { name: 'Paused', url: 'https://example.com/b' });
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: paused.id } }, body: { active: false } });
    // Scheduled codes (issue 28): answered with outcomes of their own, neither counted nor sent.
    const early = await createTestCode(owner, { name: 'Not yet', url: 'https://example.com/c' });
    const ended = await createTestCode(owner, { name: 'Ended', url: 'https://example.com/d' });
    const forwarded = await createTestCode(owner, { name: 'Ended, forwarded', url: 'https://example.com/e' });
    await setTestRouting(database.db, early.id, { activeFrom: new Date(Date.now() + 3_600_000) });
    await setTestRouting(database.db, ended.id, { expiresAt: new Date(Date.now() - 1) });
    await setTestRouting(database.db, forwarded.id, { expiresAt: new Date(Date.now() - 1), expiredUrl: 'https://example.com/over' });
    expect((await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: 'qr_nosuchcode' } } })).response.status).toBe(404);
    expect((await rawRequest(app, '/qrcodes')).status).toBe(401);
    expect((await rawRequest(app, '/no-such-operation', { apiKey: owner.apiKey })).status).toBe(404);

    for (let i = 0; i < 3; i++) expect(await scan(app, code.slug)).toBe(302);
    expect(await scan(app, 'ZZZZZZZZ')).toBe(404);
    expect(await scan(app, paused.slug)).toBe(404);
    // Created moments ago and never scanned, so not cached: each first scan reads the schedule.
    expect(await scan(app, early.slug)).toBe(404);
    expect(await scan(app, ended.slug)).toBe(410);
    expect(await scan(app, forwarded.slug)).toBe(302);
    await receiver.waitFor(3);

    // The worker counts a delivery once its attempt is recorded, just after the receiver answered.
    await expect.poll(async () => moved(before, await scrape(), 'qroute_webhook_attempts_total{outcome="succeeded"}'), { timeout: 10_000 }).toBe(3);
    const after = await scrape();
    expect(moved(before, after, 'qroute_redirects_total{outcome="redirected",status="302"}')).toBe(3);
    expect(moved(before, after, 'qroute_redirects_total{outcome="gone",status="404"}')).toBe(1);
    expect(moved(before, after, 'qroute_redirects_total{outcome="paused",status="404"}')).toBe(1);
    expect(moved(before, after, 'qroute_redirects_total{outcome="not_active",status="404"}')).toBe(1);
    expect(moved(before, after, 'qroute_redirects_total{outcome="expired",status="410"}')).toBe(1);
    expect(moved(before, after, 'qroute_redirects_total{outcome="expired_redirected",status="302"}')).toBe(1);
    expect(moved(before, after, 'qroute_redirect_duration_seconds_count{outcome="redirected"}')).toBe(3);
    expect(moved(before, after, 'qroute_redirect_duration_seconds_bucket{le="+Inf",outcome="redirected"}')).toBe(3);
    expect(moved(before, after, 'qroute_scans_written_total')).toBe(3);
    expect(moved(before, after, 'qroute_scan_batch_size_sum')).toBe(3);
    expect(moved(before, after, 'qroute_scan_batch_size_count')).toBeGreaterThanOrEqual(1);
    expect(after.get('qroute_scan_backlog')).toBe(0);
    // The account has a webhook: its first batch is found to need the outbox and written again, later ones may go
    // straight to the full statement; none is written without the outbox.
    const statements = (name: string) => moved(before, after, `qroute_scan_batch_statements_total{statement="${name}"}`);
    expect(statements('rewritten_with_webhooks')).toBeGreaterThanOrEqual(1);
    expect(statements('without_webhooks')).toBe(0);
    expect(statements('rewritten_with_webhooks') + statements('with_webhooks')).toBe(moved(before, after, 'qroute_scan_batch_size_count'));
    expect(moved(before, after, 'qroute_webhook_attempts_total{outcome="failed"}')).toBe(0);

    expect(moved(before, after, 'qroute_api_requests_total{operation="createQrCode",status="201"}')).toBe(5); // two, and the three scheduled codes
    expect(moved(before, after, 'qroute_api_requests_total{operation="updateQrCode",status="200"}')).toBe(1);
    expect(moved(before, after, 'qroute_api_requests_total{operation="getQrCode",status="404"}')).toBe(1);
    expect(moved(before, after, 'qroute_api_requests_total{operation="listQrCodes",status="401"}')).toBe(1);
    expect(moved(before, after, 'qroute_api_requests_total{operation="unknown",status="404"}')).toBe(1);
    expect(moved(before, after, 'qroute_api_request_duration_seconds_count{operation="createQrCode"}')).toBe(5);
    // Label values are operationIds, never paths with ids in them.
    expect([...after.keys()].filter((key) => key.includes('qr_'))).toEqual([]);
    expect(after.get('qroute_db_pool_connections{pool="main"}')).toBeGreaterThanOrEqual(1);
  });
});

describe('the webhook outbox gauges', () => {
  let quiet: TestDatabase;
  let noWorker: TestApp;
  // A database of its own with no worker at all: what a scan queues stays due.
  useTestApp(
    (started) => {
      quiet = started.database;
      noWorker = started.app;
    },
    { metricsToken: TOKEN, webhookWorker: false },
  );

  it('count deliveries due and the age of the oldest, read from the database at scrape time', async () => {
    const owner = await createTestAccount(quiet.db, noWorker);
    await setWebhook(quiet.db, noWorker.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
    const code = await createTestCode(owner, { url: 'https://example.com/a' });
    expect((await scrape(noWorker)).get('qroute_webhook_outbox_due')).toBe(0);
    expect((await scrape(noWorker)).get('qroute_webhook_outbox_oldest_due_seconds')).toBe(0);

    expect(await scan(noWorker, code.slug)).toBe(302);
    expect(await scan(noWorker, code.slug)).toBe(302);
    const first = await scrape(noWorker);
    expect(first.get('qroute_webhook_outbox_due')).toBe(2);
    expect(first.get('qroute_webhook_outbox_read_success')).toBe(1);
    // The age is the database's clock against the oldest row's: it only grows while nothing is sent.
    await expect.poll(async () => (await scrape(noWorker)).get('qroute_webhook_outbox_oldest_due_seconds')).toBeGreaterThan(first.get('qroute_webhook_outbox_oldest_due_seconds')!);
  });
});

describe('a scrape against a database that does not answer', () => {
  let silent: net.Server;
  let server: RunningServer;
  let db: ReturnType<typeof createDatabase>;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    // Accepts connections and never says a word: a hung PostgreSQL, or a network path that drops replies.
    silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    db = createDatabase(`postgres://nobody@127.0.0.1:${port}/none`, {
      logger: pino({ level: 'silent' }),
      // Long enough that only the scrape's own timeout can end the wait within the test's time.
      timeouts: { ...DEFAULT_DATABASE_TIMEOUTS, connectMs: 120_000 },
    });
    const config = { ...loadConfig({}), logLevel: 'silent', metricsToken: TOKEN };
    server = await listen(createApp({ config, db, logger: pino({ level: 'silent' }), box: new SecretBox(TEST_WEBHOOK_SECRET_KEY), metrics: createMetrics() }), 0, '127.0.0.1');
  });
  afterAll(async () => {
    await server?.close(0);
    for (const socket of sockets) socket.destroy();
    await db?.destroy();
    await new Promise((resolve) => silent?.close(resolve));
  });

  it('still answers, with the outbox gauges NaN and the read marked failed, and the next scrape does too', async () => {
    for (let i = 0; i < 3; i++) {
      const samples = await scrape({ origin: `http://127.0.0.1:${server.port}` });
      expect(samples.get('qroute_webhook_outbox_read_success')).toBe(0);
      expect(samples.get('qroute_webhook_outbox_due')).toBeNaN();
      expect(samples.get('qroute_webhook_outbox_oldest_due_seconds')).toBeNaN();
      // One read at a time: later scrapes share the hung read instead of taking another connection each.
      expect(samples.get('qroute_db_pool_connections{pool="main"}')).toBeLessThanOrEqual(1);
      if (i > 0) expect(samples.get('qroute_db_pool_connections{pool="main"}')).toBe(1);
    }
  }, 15_000);
});

describe('the standalone worker (npm run worker)', () => {
  let own: TestDatabase;
  let server: TestApp;
  let worker: ServiceProcess;
  let metricsOrigin: string;
  useTestApp(
    (started) => {
      own = started.database;
      server = started.app;
    },
    { webhookWorker: false },
  );
  beforeAll(async () => {
    const port = await freePort();
    metricsOrigin = `http://127.0.0.1:${port}`;
    worker = await startServiceProcess('worker', own.connectionString, { METRICS_TOKEN: TOKEN, WORKER_METRICS_PORT: String(port) });
  });
  afterAll(async () => {
    if (worker?.alive()) {
      const exited = new Promise((resolve) => worker.child.once('exit', resolve));
      worker.kill('SIGTERM');
      await exited;
    }
  });

  it('serves its own delivery counters on WORKER_METRICS_PORT, with the same token rule, and nothing else there', async () => {
    const owner = await createTestAccount(own.db, server);
    await setWebhook(own.db, server.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
    const code = await createTestCode(owner, { url: 'https://example.com/a' });
    const received = receiver.received.length;
    expect(await scan(server, code.slug)).toBe(302);
    await receiver.waitFor(received + 1);

    await expect
      .poll(async () => (await scrape({ origin: metricsOrigin })).get('qroute_webhook_attempts_total{outcome="succeeded"}'), { timeout: 10_000 })
      .toBe(1);
    const samples = await scrape({ origin: metricsOrigin });
    expect(samples.get('qroute_webhook_outbox_read_success')).toBe(1);
    expect(samples.has('qroute_db_pool_connections{pool="webhooks"}')).toBe(true);
    expect((await getMetrics(metricsOrigin)).status).toBe(401);
    expect((await fetch(`${metricsOrigin}/healthz`)).status).toBe(404);
  }, 30_000);
});
