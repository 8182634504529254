import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { rotateWebhookSecret, setWebhook } from '../../src/webhooks/webhook-settings.js';
import { getDelivery, redeliver } from '../../src/webhooks/delivery-service.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, startTestApp, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { standardHeaders, startWebhookReceiver, verifyServiceSignature, type WebhookReceiver } from '../support/webhook-receiver.js';
import { scan } from '../support/scan.js';
import { createTestCode } from '../support/factories.js';

const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** Retries in milliseconds instead of hours, no jitter: the schedule is injectable for exactly this. */
const FAST_RETRIES = { delaysMs: [100, 100, 100], jitter: (ms: number) => ms };

let database: TestDatabase;
let app: TestApp;
const receivers: WebhookReceiver[] = [];

// A 3 s attempt timeout: short, for the hanging receiver's test, yet long enough that the in-process receiver's
// answer on a loaded machine is not taken for a timeout (1 s could be, and the tests count attempts exactly).
useTestApp((started) => ({ database, app } = started), {}, {
  tuning: { webhooks: { retryPolicy: FAST_RETRIES, timeouts: { connectMs: 1_000, totalMs: 3_000 }, worker: { pollIntervalMs: 100 } } },
});
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(): Promise<WebhookReceiver> {
  const started = await startWebhookReceiver();
  receivers.push(started);
  return started;
}

interface Subscriber {
  owner: TestAccount;
  secret: string;
  code: { id: string; slug: string; name: string };
}

/** An account with a webhook pointing at `target` and one code. */
async function subscriber(target: WebhookReceiver, on: TestApp = app): Promise<Subscriber> {
  const owner = await createTestAccount(database.db, on);
  const settings = await setWebhook(database.db, on.box, { accountId: owner.accountId, url: target.url, allowPrivate: true });
  return { owner, secret: settings.secret!, code: await createTestCode(owner, { name: 'Spring poster', url: 'https://example.com/spring' }) };
}


/** `read`'s value once `accept` holds (failing the test after 10 s). */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  let value!: T;
  await expect.poll(async () => accept((value = await read())), { timeout: 10_000, interval: 50 }).toBe(true);
  return value;
}

/**
 * Proves that no more requests for what a test sent are coming, without waiting a fixed time: another scan of
 * `code` (made after everything the test checks) is delivered, so the worker has claimed past those scans, and
 * any repeat of them would have been sent first. Returns that later request.
 */
async function laterScanDelivered(target: WebhookReceiver, code: { slug: string }) {
  const before = target.received.length;
  expect(await scan(app, code.slug)).toBe(302);
  await target.waitFor(before + 1);
  return target.received.at(-1)!;
}

function deliveryOf(request: { headers: Record<string, unknown> }) {
  return getDelivery(database.db, String(request.headers['webhook-id']));
}

describe('scan.created delivery', () => {
  it('sends one POST per human scan, signed so the spec receiver steps and Standard Webhooks both verify it', async () => {
    const target = await receiver();
    const { secret, code } = await subscriber(target);
    expect(await scan(app, code.slug)).toBe(302);
    const [request] = await target.waitFor(1);

    expect(request!.method).toBe('POST');
    expect(request!.path).toBe('/hooks');
    expect(request!.headers['content-type']).toBe('application/json');
    expect(request!.headers['x-service-event']).toBe('scan.created');
    expect(request!.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(verifyServiceSignature(request!.rawBody, request!.headers['x-service-signature'], secret)).toBe(true);
    expect(verifyServiceSignature(request!.rawBody, request!.headers['x-service-signature'], `${secret}x`)).toBe(false);
    // Standard Webhooks' own verifier (id, timestamp within 5 minutes, signature) accepts the same request.
    expect(new Webhook(secret).verify(request!.rawBody, standardHeaders(request!))).toBeTruthy();

    const body = JSON.parse(request!.rawBody.toString('utf8'));
    expect(body).toEqual({
      event: 'scan.created',
      qrCodeId: code.id,
      slug: code.slug,
      name: 'Spring poster',
      device: 'mobile',
      os: 'iOS',
      browser: 'Mobile Safari',
      id: request!.headers['webhook-id'],
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      // From loopback, without Accept-Language: nowhere, no language; the code's first scan by this visitor today.
      country: null,
      language: null,
      unique: true,
      // A code without routing: its own destination answered.
      ruleId: null,
      variant: null,
    });
    expect(Math.abs(Number(request!.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);

    const delivery = await eventually(() => deliveryOf(request!), (d) => d.status === 'succeeded');
    expect(delivery).toMatchObject({ status: 'succeeded', attemptCount: 1, event: 'scan.created', qrCodeId: code.id });
    expect(delivery.body).toBe(request!.rawBody.toString('utf8'));
    const later = await laterScanDelivered(target, code);
    expect(target.received).toHaveLength(2);
    expect(later.headers['webhook-id']).not.toBe(request!.headers['webhook-id']);
  });

  it('sends nothing for bots, HEAD requests, paused or deleted codes', async () => {
    const target = await receiver();
    const { owner, code } = await subscriber(target);
    expect(await scan(app, code.slug, { userAgent: GOOGLEBOT })).toBe(302);
    expect(await scan(app, code.slug, { method: 'HEAD' })).toBe(302);
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { active: false } });
    expect(await scan(app, code.slug)).toBe(404);
    await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: code.id } } });
    expect(await scan(app, code.slug)).toBe(404);
    // A human scan of another code, delivered: the scans above were recorded before it, in its batch or earlier.
    const later = await laterScanDelivered(target, await createTestCode(owner, { name: 'Later poster' }));
    expect(target.received).toEqual([later]);
    const rows = await database.db.selectFrom('webhook_deliveries').select('id').where('qr_code_id', '=', code.id).execute();
    expect(rows).toHaveLength(0);
  });

  it('delivers a scan of a code paused, renamed and deleted afterwards, with the name and slug of the scan', async () => {
    const target = await receiver();
    target.respondWith(() => ({ status: 503 }));
    const { owner, code } = await subscriber(target);
    expect(await scan(app, code.slug)).toBe(302);
    await target.waitFor(1);
    await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id: code.id } }, body: { name: 'Renamed', active: false } });
    await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: code.id } } });
    target.respondWith(() => ({ status: 200 }));
    const requests = await target.waitFor(2);
    const body = JSON.parse(requests[1]!.rawBody.toString('utf8'));
    expect(body).toMatchObject({ qrCodeId: code.id, slug: code.slug, name: 'Spring poster' });
  });
});

describe('retries', () => {
  it('500, 500, then 200: the event arrives exactly three times with one webhook-id, every attempt logged', async () => {
    const target = await receiver();
    target.respondWith((_, index) => (index < 2 ? { status: 500, body: `boom ${index}` } : { status: 200, body: 'ok' }));
    const { secret, code } = await subscriber(target);
    await scan(app, code.slug);
    // A copy: waitFor returns the receiver's own list, which the later scan adds to.
    const requests = [...(await target.waitFor(3))];
    const delivery = await eventually(() => deliveryOf(requests[0]!), (d) => d.status === 'succeeded');
    await laterScanDelivered(target, code);
    expect(target.received).toHaveLength(4);

    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.rawBody.toString('hex'))).size).toBe(1);
    for (const request of requests) {
      expect(verifyServiceSignature(request.rawBody, request.headers['x-service-signature'], secret)).toBe(true);
    }
    expect(delivery.attemptCount).toBe(3);
    expect(delivery.attempts.map((a) => [a.attemptNumber, a.statusCode, a.error, a.responseBody])).toEqual([
      [1, 500, 'HTTP 500', 'boom 0'],
      [2, 500, 'HTTP 500', 'boom 1'],
      [3, 200, null, 'ok'],
    ]);
    for (const attempt of delivery.attempts) {
      expect(attempt.url).toBe(target.url);
      expect(attempt.latencyMs).toBeGreaterThanOrEqual(0);
    }
  });

  it('times out a receiver that hangs, and retries', async () => {
    const target = await receiver();
    target.respondWith((_, index) => (index === 0 ? 'hang' : { status: 204 }));
    const { code } = await subscriber(target);
    await scan(app, code.slug);
    const requests = await target.waitFor(2, 15_000);
    expect(requests[1]!.headers['webhook-id']).toBe(requests[0]!.headers['webhook-id']);
    const delivery = await eventually(() => deliveryOf(requests[0]!), (d) => d.status === 'succeeded');
    expect(delivery.attempts[0]).toMatchObject({ statusCode: null, error: expect.stringMatching(/timeout|timed out/i) });
    expect(delivery.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(2_900);
    expect(delivery.attempts[1]).toMatchObject({ statusCode: 204, error: null });
  });

  it('does not follow redirects; fails after the last attempt; a redelivery sends the same event again', async () => {
    const elsewhere = await receiver();
    const target = await receiver();
    target.respondWith(() => ({ status: 302, headers: { Location: elsewhere.url } }));
    const { owner, secret, code } = await subscriber(target);
    await scan(app, code.slug);
    const requests = await target.waitFor(4);
    const failed = await eventually(() => deliveryOf(requests[0]!), (d) => d.status === 'failed');
    expect(failed).toMatchObject({ status: 'failed', attemptCount: 4, lastStatusCode: 302 });
    expect(failed.attempts.every((a) => a.statusCode === 302 && /redirects are not followed/.test(a.error!))).toBe(true);
    expect(elsewhere.received).toHaveLength(0);

    target.respondWith(() => ({ status: 200 }));
    const queued = await redeliver(database.db, failed.id, owner.accountId);
    expect(queued.status).toBe('pending');
    const again = await target.waitFor(5);
    expect(again[4]!.headers['webhook-id']).toBe(failed.id);
    expect(again[4]!.rawBody.equals(requests[0]!.rawBody)).toBe(true);
    expect(verifyServiceSignature(again[4]!.rawBody, again[4]!.headers['x-service-signature'], secret)).toBe(true);
    const delivered = await eventually(() => getDelivery(database.db, failed.id), (d) => d.status === 'succeeded');
    expect(delivered.attemptCount).toBe(5);
  });

  it('waits as long as Retry-After says on 429', async () => {
    const target = await receiver();
    target.respondWith((_, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 }));
    const { code } = await subscriber(target);
    await scan(app, code.slug);
    const requests = await target.waitFor(2, 10_000);
    // The schedule says 100 ms; the receiver asked for 2 s.
    expect(requests[1]!.receivedAt - requests[0]!.receivedAt).toBeGreaterThanOrEqual(1_900);
  });

  it('keeps only the first 2 KB of an answer in the log', async () => {
    const target = await receiver();
    target.respondWith(() => ({ status: 200, body: 'x'.repeat(50_000) }));
    const { code } = await subscriber(target);
    await scan(app, code.slug);
    const [request] = await target.waitFor(1);
    const delivery = await eventually(() => deliveryOf(request!), (d) => d.status === 'succeeded');
    expect(delivery.attempts[0]!.responseBody).toBe('x'.repeat(2048));
  });
});

describe('endpoint health', () => {
  it('410 Gone fails the delivery and disables the endpoint; setting the webhook again re-enables it', async () => {
    const target = await receiver();
    target.respondWith(() => ({ status: 410 }));
    const { owner, code } = await subscriber(target);
    await scan(app, code.slug);
    const [request] = await target.waitFor(1);
    const delivery = await eventually(() => deliveryOf(request!), (d) => d.status === 'failed');
    expect(delivery.attemptCount).toBe(1);
    const endpoint = await database.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(endpoint.disabled_at).not.toBeNull();
    expect(endpoint.disabled_reason).toBe('the receiver answered 410 Gone');

    // While disabled, scans are still recorded but create no deliveries.
    expect(await scan(app, code.slug)).toBe(302);
    const deliveries = await database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', owner.accountId).execute();
    expect(deliveries).toHaveLength(1);

    target.respondWith(() => ({ status: 200 }));
    const settings = await setWebhook(database.db, app.box, { accountId: owner.accountId, url: target.url, allowPrivate: true });
    expect(settings).toMatchObject({ enabled: true, disabledAt: null, consecutiveFailures: 0 });
    await scan(app, code.slug);
    await target.waitFor(2);
  });
});

describe('signing secrets', () => {
  it('are stored encrypted, bound to their account', async () => {
    const target = await receiver();
    const { owner, secret } = await subscriber(target);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const row = await database.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(row.secret_encrypted).not.toContain(secret.slice(6, 20));
    expect(app.box.decrypt(row.secret_encrypted, owner.accountId)).toBe(secret);
    expect(() => app.box.decrypt(row.secret_encrypted, 'acc_someone_else')).toThrow();
  });

  it('rotation: both secrets sign webhook-signature during the overlap; afterwards only the new one', async () => {
    const target = await receiver();
    const { owner, secret: oldSecret, code } = await subscriber(target);
    // A delivery before the rotation: the worker has opened (and remembers) the old secret.
    await scan(app, code.slug);
    const [before] = await target.waitFor(1);
    expect(verifyServiceSignature(before!.rawBody, before!.headers['x-service-signature'], oldSecret)).toBe(true);
    const rotated = await rotateWebhookSecret(database.db, app.box, owner.accountId);
    const newSecret = rotated.secret!;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.previousSecretExpiresAt!.getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    await scan(app, code.slug);
    const [, during] = await target.waitFor(2);
    expect(String(during!.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(during!.rawBody, standardHeaders(during!))).toBeTruthy();
    expect(new Webhook(oldSecret).verify(during!.rawBody, standardHeaders(during!))).toBeTruthy();
    // The spec's header carries one signature: the new secret's.
    expect(verifyServiceSignature(during!.rawBody, during!.headers['x-service-signature'], newSecret)).toBe(true);
    expect(verifyServiceSignature(during!.rawBody, during!.headers['x-service-signature'], oldSecret)).toBe(false);

    // The overlap ends (moved into the past rather than waiting 24 h).
    await database.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(Date.now() - 1_000) })
      .where('account_id', '=', owner.accountId)
      .execute();
    await scan(app, code.slug);
    const [, , after] = await target.waitFor(3);
    expect(String(after!.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(new Webhook(newSecret).verify(after!.rawBody, standardHeaders(after!))).toBeTruthy();
    expect(() => new Webhook(oldSecret).verify(after!.rawBody, standardHeaders(after!))).toThrow();
  });
});

describe('workers', () => {
  it('two instances with a worker each deliver every event once', async () => {
    const second = await startTestApp(database, {}, { webhooks: { retryPolicy: FAST_RETRIES, worker: { pollIntervalMs: 100 } } });
    try {
      const target = await receiver();
      const { code } = await subscriber(target);
      const scans = 200;
      const statuses = await Promise.all(Array.from({ length: scans }, (_, i) => scan(i % 2 ? second : app, code.slug)));
      expect(statuses.every((s) => s === 302)).toBe(true);
      await target.waitFor(scans, 20_000);
      await laterScanDelivered(target, code);
      const ids = target.received.map((r) => String(r.headers['webhook-id']));
      expect(new Set(ids).size).toBe(scans + 1);
      // Once each, unless with cause: an answer slower than this file's 3 s timeout (a loaded machine) is a failed
      // attempt, retried. A repeat without a failed attempt recorded first would be two workers sending one delivery.
      const repeated = [...new Set(ids.filter((id, index) => ids.indexOf(id) !== index))];
      const failedFirst = repeated.length === 0 ? [] : await database.db.selectFrom('webhook_attempts').select('delivery_id').distinct()
        .where('delivery_id', 'in', repeated).where((eb) => eb.or([eb('error', 'is not', null), eb('status_code', 'is', null), eb('status_code', '>=', 300)])).execute();
      expect(failedFirst.map((attempt) => attempt.delivery_id).sort()).toEqual(repeated.sort());
      const deliveryStatuses = async () => (await database.db.selectFrom('webhook_deliveries').select('status').where('id', 'in', ids).execute()).map((d) => d.status);
      // Each request is recorded just after its answer: the last ones may still be in flight.
      await expect.poll(deliveryStatuses).toEqual(ids.map(() => 'succeeded'));
      expect(app.webhooks!.worker.stats.succeeded + second.webhooks!.worker.stats.succeeded).toBeGreaterThanOrEqual(scans);
    } finally {
      await second.close();
    }
  });
});
