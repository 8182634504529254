import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { scan } from '../support/scan.js';
import type { TestApp } from '../support/test-app.js';
import { type Reply, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { useOwnApps } from '../support/own-apps.js';

const { cleanup, setup, subscriber } = useOwnApps();

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
});
