import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import type { LookupFunction } from 'node:net';
import { attemptNow } from '../../src/webhooks/delivery-service.js';
import { WebhookSender } from '../../src/webhooks/sender.js';
import { WebhookUrlError } from '../../src/webhooks/url-guard.js';
import { createTestDatabase } from '../support/database.js';
import { createTestAccount, startTestApp } from '../support/test-app.js';
import { scan } from '../support/scan.js';
import { useOwnApps } from '../support/own-apps.js';
import { createTestCode } from '../support/factories.js';

const { cleanup, setup, receiver, subscriber } = useOwnApps();

async function until(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  await expect.poll(check, { timeout: timeoutMs, interval: 50 }).toBe(true);
}

describe('per-account concurrency', () => {
  it('a receiver that hangs holds only its account share of slots; other accounts are delivered meanwhile', async () => {
    const { database, app } = await setup({
      webhooks: { timeouts: { connectMs: 1_000, totalMs: 30_000 }, worker: { concurrency: 10, perAccountConcurrency: 4, pollIntervalMs: 100 } },
    });
    const slow = await receiver();
    slow.respondWith(() => 'hang');
    const fast = await receiver();
    const slowOne = await subscriber(database, app, slow.url);
    const fastOne = await subscriber(database, app, fast.url);

    await Promise.all(Array.from({ length: 40 }, () => scan(app, slowOne.code.slug)));
    await slow.waitFor(4);
    await Promise.all(Array.from({ length: 5 }, () => scan(app, fastOne.code.slug)));
    // Without the per-account bound the hanging account would hold all 10 slots for 30 s.
    await fast.waitFor(5, 5_000);
    expect(slow.received).toHaveLength(4);
  });
});

describe('disabling a failing endpoint', () => {
  it('after 20 failed deliveries in a row (a success resets the count)', async () => {
    const { database, app } = await setup({ webhooks: { retryPolicy: { delaysMs: [], jitter: (ms) => ms }, worker: { pollIntervalMs: 100 } } });
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    const endpoint = () => database.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    const failedCount = async () =>
      Number((await sql<{ n: string }>`select count(*) as n from webhook_deliveries where account_id = ${owner.accountId} and status = 'failed'`.execute(database.db)).rows[0]!.n);

    target.respondWith(() => ({ status: 500 }));
    for (let i = 0; i < 19; i++) await scan(app, code.slug);
    await until(async () => (await failedCount()) === 19);
    expect(await endpoint()).toMatchObject({ consecutive_failures: 19, disabled_at: null });

    target.respondWith(() => ({ status: 200 }));
    await scan(app, code.slug);
    await until(async () => (await endpoint()).consecutive_failures === 0);

    target.respondWith(() => ({ status: 500 }));
    for (let i = 0; i < 20; i++) await scan(app, code.slug);
    await until(async () => (await failedCount()) === 39);
    const disabled = await endpoint();
    expect(disabled.disabled_at).not.toBeNull();
    expect(disabled.disabled_reason).toBe('20 deliveries in a row failed');
    expect(disabled.consecutive_failures).toBe(20);
  });
});

describe('private addresses', () => {
  it('are refused at registration and again at connect time (a name that resolves to loopback)', async () => {
    const { database, app } = await setup({ webhooks: { worker: { pollIntervalMs: 100 } } }, { allowPrivateWebhookUrls: false });
    const target = await receiver();
    const viaName = target.url.replace('127.0.0.1', 'localhost');
    const owner = await createTestAccount(database.db, app);
    await expect(setWebhook(database.db, app.box, { accountId: owner.accountId, url: viaName, allowPrivate: false })).rejects.toThrow(WebhookUrlError);
    await expect(setWebhook(database.db, app.box, { accountId: owner.accountId, url: target.url, allowPrivate: false })).rejects.toThrow(
      /must point to a public address/,
    );

    // Stored anyway (as if the name resolved publicly when it was registered, then was rebound to 127.0.0.1).
    await setWebhook(database.db, app.box, { accountId: owner.accountId, url: viaName, allowPrivate: true });
    expect(await scan(app, (await createTestCode(owner)).slug)).toBe(302);
    await until(async () => {
      const attempt = await database.db.selectFrom('webhook_attempts').selectAll().executeTakeFirst();
      return attempt !== undefined;
    });
    const attempt = await database.db.selectFrom('webhook_attempts').selectAll().executeTakeFirstOrThrow();
    expect(attempt.status_code).toBeNull();
    expect(attempt.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), which is not one .*ALLOW_PRIVATE_WEBHOOK_URLS=true/);
    expect(target.received).toHaveLength(0);
  });

  it.each([
    ['a name resolving to loopback', 'http://hooks.example.test:PORT/hooks', ['127.0.0.1'], /hooks\.example\.test resolves to 127\.0\.0\.1, which is not one \(127\.0\.0\.0\/8, loopback\)/],
    ['a name resolving to an IPv4-compatible loopback', 'http://hooks.example.test:PORT/hooks', ['::7f00:1'], /resolves to ::7f00:1, which is not one \(::\/96/],
    ['a name resolving to a mapped and a public address', 'http://hooks.example.test:PORT/hooks', ['93.184.215.14', '::ffff:127.0.0.1'], /resolves to ::ffff:127\.0\.0\.1, which is not one \(::ffff:0:0\/96/],
    ['an IPv4-compatible IPv6 literal', 'http://[::127.0.0.1]:PORT/hooks', [], /::7f00:1 is not one \(::\/96/],
    ['a hex IPv4-mapped literal', 'http://[::ffff:7f00:1]:PORT/hooks', [], /::ffff:7f00:1 is not one \(::ffff:0:0\/96/],
    ['a decimal IPv4 literal', 'http://2130706433:PORT/hooks', [], /127\.0\.0\.1 is not one \(127\.0\.0\.0\/8/],
  ])('are refused when connecting to %s: the receiver gets nothing and the attempt names the refusal', async (_label, stored, answers, refusal) => {
    const { database, app } = await setup({}, { allowPrivateWebhookUrls: false, webhookWorker: false });
    const target = await receiver();
    const owner = await createTestAccount(database.db, app);
    // Stored as if it had passed registration (a name that resolved publicly then, or a row from before this check).
    await setWebhook(database.db, app.box, { accountId: owner.accountId, url: stored.replace('PORT', new URL(target.url).port), allowPrivate: true });
    expect(await scan(app, (await createTestCode(owner)).slug)).toBe(302);
    const pending = await database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();

    const resolved: string[] = [];
    const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      resolved.push(hostname);
      const all = answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
      if (options.all) callback(null, all);
      else callback(null, all[0]!.address, all[0]!.family);
    }) as unknown as LookupFunction;
    const sender = new WebhookSender({ allowPrivateAddresses: false, lookup });
    try {
      const outcome = await attemptNow({ db: database.db, box: app.box, sender, retryPolicy: { delaysMs: [], jitter: (ms) => ms } }, { deliveryId: pending.id });
      expect(outcome).toMatchObject({ statusCode: undefined, status: 'failed' });
      expect(outcome.error).toMatch(refusal);
      expect(outcome.error).toMatch(/ALLOW_PRIVATE_WEBHOOK_URLS=true/);
      expect(resolved).toEqual(answers.length > 0 ? ['hooks.example.test'] : []);
    } finally {
      sender.close();
    }
    const [attempt] = await database.db.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', pending.id).execute();
    expect(attempt!.error).toMatch(refusal);
    expect(target.received).toHaveLength(0);
  });
});

describe('shutdown', () => {
  it('lets attempts in flight run until the grace period, then releases them for the next worker, uncounted', async () => {
    const database = await createTestDatabase();
    cleanup(() => database.destroy());
    const first = await startTestApp(database, {}, { webhooks: { timeouts: { connectMs: 1_000, totalMs: 30_000 }, worker: { pollIntervalMs: 100 } } });
    const target = await receiver();
    target.respondWith((_, index) => (index === 0 ? 'hang' : { status: 200 }));
    const { code } = await subscriber(database, first, target.url);
    await scan(first, code.slug);
    const [request] = await target.waitFor(1);
    const id = String(request!.headers['webhook-id']);

    await first.close(); // the worker's grace period in test apps is 1 s
    const released = await database.db.selectFrom('webhook_deliveries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(released).toMatchObject({ status: 'pending', claimed_by: null, attempt_count: 0 });
    expect(released.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
    expect(await database.db.selectFrom('webhook_attempts').selectAll().execute()).toHaveLength(0);

    const next = await startTestApp(database, {}, { webhooks: { worker: { pollIntervalMs: 100 } } });
    cleanup(() => next.close());
    const [, again] = await target.waitFor(2);
    expect(again!.headers['webhook-id']).toBe(id);
    await until(async () => (await database.db.selectFrom('webhook_deliveries').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status === 'succeeded');
  });
});
