import { afterEach, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { scan } from '../support/scan.js';
import { createTestCode } from '../support/factories.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let database: TestDatabase;
let app: TestApp;
let target: WebhookReceiver;

useTestApp((started) => ({ database, app } = started), {}, {
  tuning: { webhooks: { retryPolicy: { delaysMs: [50], jitter: (ms) => ms }, timeouts: { connectMs: 1_000, totalMs: 20_000 }, worker: { pollIntervalMs: 100 } } },
});
afterEach(async () => {
  await target?.close();
});

async function subscribed(): Promise<{ owner: TestAccount; slug: string; codeId: string }> {
  target = await startWebhookReceiver();
  const owner = await createTestAccount(database.db, app);
  await setWebhook(database.db, app.box, { accountId: owner.accountId, url: target.url, allowPrivate: true });
  const code = await createTestCode(owner);
  return { owner, slug: code.slug, codeId: code.id };
}


/** The account's deliveries in `status`, once there are at least `count` of them (failing the test after 10 s). */
async function settled(owner: TestAccount, count: number, status: 'failed' | 'succeeded') {
  const listed = async () => (await owner.client.raw.GET('/webhook/deliveries', { params: { query: { status, limit: 100 } } })).data!.data;
  await expect.poll(async () => (await listed()).length, { timeout: 10_000, interval: 50 }).toBeGreaterThanOrEqual(count);
  return listed();
}

describe('GET /webhook', () => {
  it('shows the settings and health without the secret; 404 not_found before a webhook is set', async () => {
    const stranger = await createTestAccount(database.db, app);
    const none = await stranger.client.raw.GET('/webhook');
    expect(none.response.status).toBe(404);
    expect(none.error!.error.code).toBe('not_found');

    const { owner } = await subscribed();
    const { data, response } = await owner.client.raw.GET('/webhook');
    expect(response.status).toBe(200);
    expect(data!.data).toEqual({
      url: target.url,
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      previousSecretExpiresAt: null,
      consecutiveFailures: 0,
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(JSON.stringify(data)).not.toContain('whsec_');
  });
});

describe('webhook deliveries', () => {
  it('lists failed deliveries with pagination, shows attempts, and redelivers with the same id', async () => {
    const { owner, slug, codeId } = await subscribed();
    target.respondWith(() => ({ status: 500, body: 'down for maintenance' }));
    for (let i = 0; i < 3; i++) await scan(app, slug);
    const failed = await settled(owner, 3, 'failed');
    expect(failed[0]).toMatchObject({
      event: 'scan.created',
      qrCodeId: codeId,
      status: 'failed',
      attemptCount: 2,
      nextAttemptAt: null,
      lastStatusCode: 500,
      lastError: 'HTTP 500',
      completedAt: expect.stringMatching(ISO_UTC),
      payload: { event: 'scan.created', qrCodeId: codeId, slug, name: 'Poster', device: 'mobile', os: 'iOS', browser: 'Mobile Safari' },
    });
    expect(failed[0]!.payload.id).toBe(failed[0]!.id);

    const first = await owner.client.raw.GET('/webhook/deliveries', { params: { query: { limit: 2 } } });
    expect(first.data!.data.map((d) => d.id)).toEqual(failed.slice(0, 2).map((d) => d.id));
    const second = await owner.client.raw.GET('/webhook/deliveries', { params: { query: { limit: 2, cursor: first.data!.nextCursor! } } });
    expect(second.data!.data.map((d) => d.id)).toEqual([failed[2]!.id]);
    expect(second.data!.nextCursor).toBeNull();

    const detail = await owner.client.raw.GET('/webhook/deliveries/{deliveryId}', { params: { path: { deliveryId: failed[0]!.id } } });
    expect(detail.data!.attempts).toEqual([
      { attemptNumber: 1, startedAt: expect.stringMatching(ISO_UTC), url: target.url, statusCode: 500, latencyMs: expect.any(Number), error: 'HTTP 500', responseBody: 'down for maintenance' },
      { attemptNumber: 2, startedAt: expect.stringMatching(ISO_UTC), url: target.url, statusCode: 500, latencyMs: expect.any(Number), error: 'HTTP 500', responseBody: 'down for maintenance' },
    ]);

    target.respondWith(() => ({ status: 200 }));
    const received = target.received.length;
    const queued = await owner.client.raw.POST('/webhook/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: failed[0]!.id } } });
    expect(queued.response.status).toBe(202);
    expect(queued.data!.data).toMatchObject({ id: failed[0]!.id, status: 'pending', completedAt: null });
    await target.waitFor(received + 1);
    expect(target.received.at(-1)!.headers['webhook-id']).toBe(failed[0]!.id);
    const succeeded = await settled(owner, 1, 'succeeded');
    expect(succeeded[0]).toMatchObject({ id: failed[0]!.id, attemptCount: 3, lastStatusCode: 200, lastError: null });
  });

  it('answers 409 delivery_in_progress while an attempt is running', async () => {
    const { owner, slug } = await subscribed();
    target.respondWith(() => 'hang');
    await scan(app, slug);
    const [request] = await target.waitFor(1);
    const id = String(request!.headers['webhook-id']);
    const busy = await owner.client.raw.POST('/webhook/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: id } } });
    expect(busy.response.status).toBe(409);
    expect(busy.error!.error.code).toBe('delivery_in_progress');
  });

  it("keeps each account's deliveries to itself", async () => {
    const { owner, slug } = await subscribed();
    await scan(app, slug);
    const [delivery] = await settled(owner, 1, 'succeeded');
    const stranger = await createTestAccount(database.db, app);
    expect((await stranger.client.raw.GET('/webhook/deliveries')).data!.data).toEqual([]);
    const read = await stranger.client.raw.GET('/webhook/deliveries/{deliveryId}', { params: { path: { deliveryId: delivery!.id } } });
    expect(read.response.status).toBe(404);
    const again = await stranger.client.raw.POST('/webhook/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId: delivery!.id } } });
    expect(again.response.status).toBe(404);
    expect(again.error!.error.code).toBe('not_found');
  });

  it.each([
    ['/webhook/deliveries?status=lost', 400, 'invalid_query'],
    ['/webhook/deliveries?cursor=qr_01JD3Z8Q4V6N1X2Y3Z4A5B6C7D', 400, 'invalid_query'],
    ['/webhook/deliveries?limit=0', 400, 'invalid_query'],
    ['/webhook/deliveries/whd_01JD3Z9A2B3C4D5E6F7G8H9J0K', 404, 'not_found'],
    ['/webhook/deliveries/nonsense', 404, 'not_found'],
    ['/webhook/deliveries/whd_%00', 404, 'not_found'],
  ])('GET %s answers %i %s', async (path, status, code) => {
    const owner = await createTestAccount(database.db, app);
    const res = await rawRequest(app, path, { apiKey: owner.apiKey });
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe(code);
  });
});
