import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { type Reply, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useOwnApps } from '../support/own-apps.js';

const { cleanup, receiver: startReceiver, setup, subscriber } = useOwnApps();

/** A receiver that answers every request after `delayMs` and counts how many it holds at once. */
async function receiverAnsweringAfter(delayMs: number): Promise<WebhookReceiver & { holding: () => number; mostHeld: () => number; answered: () => number }> {
  const started = await startWebhookReceiver();
  cleanup(() => started.close());
  let holding = 0;
  let mostHeld = 0;
  let answered = 0;
  started.respondWith(
    () =>
      new Promise<Reply>((resolve) => {
        holding++;
        mostHeld = Math.max(mostHeld, holding);
        // The receiver's own answer time, not a wait in the test.
        setTimeout(() => {
          holding--;
          answered++;
          resolve({ status: 204 });
        }, delayMs);
      }),
  );
  return Object.assign(started, { holding: () => holding, mostHeld: () => mostHeld, answered: () => answered });
}

async function scanMany(app: TestApp, slug: string, count: number): Promise<void> {
  for (let done = 0; done < count; done += 50) {
    const statuses = await Promise.all(Array.from({ length: Math.min(50, count - done) }, () => scan(app, slug)));
    expect(statuses.every((status) => status === 302)).toBe(true);
  }
}

async function pendingOf(database: TestDatabase, accountId: string): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where account_id = ${accountId} and status = 'pending'`.execute(database.db);
  return result.rows[0]!.n;
}

describe("each account's in-flight bound adapts to its receiver", () => {
  it('a fast receiver gets more than the old fixed 8 requests at once', async () => {
    const { database, app } = await setup({ webhooks: { worker: { pollIntervalMs: 100 } } });
    // 20 ms is fast (under the 250 ms latency target) yet long enough for requests to overlap at the receiver.
    const fast = await receiverAnsweringAfter(20);
    const { owner, code } = await subscriber(database, app, fast.url);
    await scanMany(app, code.slug, 600);

    await expect.poll(() => pendingOf(database, owner.accountId), { timeout: 30_000 }).toBe(0);
    expect(fast.received).toHaveLength(600);
    expect(fast.mostHeld()).toBeGreaterThan(8);
    expect(app.webhooks!.worker.accountLimit(owner.accountId)).toBeGreaterThan(8);
  });

  it("a slow receiver falls to the floor and holds only that many slots; another account's deliveries keep flowing meanwhile", async () => {
    const { database, app } = await setup({
      webhooks: { worker: { concurrency: 16, perAccountConcurrency: 8, perAccountConcurrencyFloor: 2, latencyTargetMs: 100, pollIntervalMs: 100 } },
    });
    const slow = await receiverAnsweringAfter(300);
    const fast = await receiverAnsweringAfter(1);
    const a = await subscriber(database, app, slow.url);
    const b = await subscriber(database, app, fast.url);
    await scanMany(app, a.code.slug, 200);

    await expect.poll(() => app.webhooks!.worker.accountLimit(a.owner.accountId), { timeout: 15_000 }).toBe(2);
    // Requests sent before the bound fell are answered; from then on the slow receiver holds at most the floor.
    await expect.poll(() => slow.holding(), { timeout: 5_000 }).toBeLessThanOrEqual(2);
    const heldBefore = slow.mostHeld();
    expect(heldBefore).toBeLessThanOrEqual(8);

    await scanMany(app, b.code.slug, 100);
    await expect.poll(() => fast.answered(), { timeout: 10_000 }).toBe(100);
    // Account A still has most of its backlog: B did not wait behind it.
    expect(await pendingOf(database, a.owner.accountId)).toBeGreaterThan(100);
    expect(slow.holding()).toBeLessThanOrEqual(2);
  });

  it('a receiver that stops answering falls to the floor within seconds, long before its requests time out', async () => {
    const { database, app } = await setup({ webhooks: { worker: HANG_WORKER } });
    const worker = app.webhooks!.worker;
    const hung = await accountWhoseReceiverHangs(database, app);

    await expect.poll(() => worker.accountLimit(hung.accountId), { timeout: 10_000 }).toBe(2);
    // Before the 15 s attempt timeout (within a few latency targets when the machine is quiet): no request to the
    // hung receiver has ended yet, so none of them taught the bound by timing out.
    expect(performance.now() - hung.at).toBeLessThan(12_000);
    expect(worker.stats.retried + worker.stats.failed).toBe(0);
    expect(hung.requestsHanging()).toBeLessThanOrEqual(hung.boundWhileFast);
  });

  it("requests hanging at a stopped receiver do not take other accounts' slots", async () => {
    const { database, app } = await setup({ webhooks: { worker: HANG_WORKER } });
    const worker = app.webhooks!.worker;
    const hung = await accountWhoseReceiverHangs(database, app);
    await expect.poll(() => worker.accountLimit(hung.accountId), { timeout: 5_000 }).toBe(2);
    // As many as its bound allowed (more than 8): counted against the worker's 16, they would leave the other
    // account fewer than its own initial 8.
    const hanging = hung.requestsHanging();
    expect(hanging).toBeGreaterThan(8);

    const other = await receiverAnsweringAfter(50);
    const b = await subscriber(database, app, other.url);
    await scanMany(app, b.code.slug, 200);
    await expect.poll(() => other.answered(), { timeout: 10_000 }).toBe(200);
    expect(other.mostHeld()).toBeGreaterThan(HANG_WORKER.concurrency - hanging);
    expect(worker.stats.retried + worker.stats.failed).toBe(0); // all of it while the hung requests still hang
  });

  it("requests hanging at stopped receivers add at most as many again as the worker's concurrency", async () => {
    const { database, app } = await setup({
      webhooks: {
        worker: { concurrency: 4, perAccountConcurrency: 4, perAccountConcurrencyFloor: 2, perAccountConcurrencyCeiling: 4, latencyTargetMs: 250, pollIntervalMs: 100 },
        timeouts: { connectMs: 1_000, totalMs: 3_000 },
      },
    });
    const receivers: WebhookReceiver[] = [];
    const slugs: string[] = [];
    for (let i = 0; i < 3; i++) {
      const receiver = await startReceiver();
      receiver.respondWith(() => 'hang');
      receivers.push(receiver);
      slugs.push((await subscriber(database, app, receiver.url)).code.slug);
    }
    // All three accounts set up first, then scanned: the window below opens with the first request, and setting up
    // an account between scans took part of it on a loaded machine.
    for (const slug of slugs) await scanMany(app, slug, 6);
    // The first requests time out after 3 s; count what was sent before that.
    await expect.poll(() => app.webhooks!.worker.stats.retried, { timeout: 15_000 }).toBeGreaterThan(0);
    const sent = receivers.flatMap((receiver) => receiver.received.map((request) => request.receivedAt));
    const first = Math.min(...sent);
    // 4 counted against the concurrency, then 4 more once those had waited past the target; a third 4 would break
    // the cap (each account may have 4 of its 6 in flight, so 12 were there to send).
    expect(sent.filter((at) => at < first + 2_500)).toHaveLength(8);
  });

  it("attempts waiting on a slow database hold none of the receiver's slots and are not taken for slow answers", async () => {
    const { database, app } = await setup({ webhooks: { worker: { latencyTargetMs: 250, pollIntervalMs: 100 } } });
    const worker = app.webhooks!.worker;
    const receiver = await receiverAnsweringAfter(100);
    const { owner, code } = await subscriber(database, app, receiver.url);
    await scanMany(app, code.slug, 100);
    await expect.poll(() => pendingOf(database, owner.accountId), { timeout: 30_000 }).toBe(0);
    const before = worker.accountLimit(owner.accountId);

    await database.db.transaction().execute(async (trx) => {
      // Attempts cannot be recorded while this lasts: the receiver answers in 100 ms, the attempts stay in flight.
      await sql`lock table webhook_attempts in exclusive mode`.execute(trx);
      await scanMany(app, code.slug, 50);
      // All 50 are sent, in waves of the account's bound: an answered attempt gives its slot back
      // while it waits to be recorded, so the receiver is never idle because of the database.
      expect(before).toBeLessThan(50);
      await expect.poll(() => receiver.answered(), { timeout: 10_000 }).toBe(150);
      // The database stays that slow for a second: the worker looks eight times, finding every attempt older than the target.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
    await expect.poll(() => pendingOf(database, owner.accountId), { timeout: 30_000 }).toBe(0);
    expect(worker.accountLimit(owner.accountId)).toBeGreaterThanOrEqual(before);
  });
});

/** A worker small enough that one hung receiver at its ceiling (16) could hold all of its slots (16). */
const HANG_WORKER = { concurrency: 16, perAccountConcurrency: 8, perAccountConcurrencyFloor: 2, perAccountConcurrencyCeiling: 16, latencyTargetMs: 250, pollIntervalMs: 100 };

/**
 * An account whose receiver answered fast for 400 deliveries (so its bound grew past the initial 8) and then
 * stopped answering, with 100 more deliveries due: as many requests as its bound allowed are now hanging.
 */
async function accountWhoseReceiverHangs(database: TestDatabase, app: TestApp) {
  const receiver = await receiverAnsweringAfter(20);
  const { owner, code } = await subscriber(database, app, receiver.url);
  await scanMany(app, code.slug, 400);
  await expect.poll(() => pendingOf(database, owner.accountId), { timeout: 30_000 }).toBe(0);
  const boundWhileFast = app.webhooks!.worker.accountLimit(owner.accountId);
  expect(boundWhileFast).toBeGreaterThan(8);

  receiver.respondWith(() => 'hang');
  const at = performance.now();
  await scanMany(app, code.slug, 100);
  await expect.poll(() => receiver.received.length, { timeout: 5_000 }).toBeGreaterThan(400);
  return { accountId: owner.accountId, boundWhileFast, at, requestsHanging: () => receiver.received.length - 400 };
}
