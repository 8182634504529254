import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { WEBHOOKS_DUE_CHANNEL } from '../../src/db/channels.js';
import { newId } from '../../src/ids.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { startServiceProcess, type ServiceProcess } from '../support/processes.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

// This test crashes PostgreSQL, so the file runs a cluster of its own.
let cluster: OwnCluster;
let worker: ServiceProcess | undefined;
let receiver: WebhookReceiver | undefined;

beforeAll(async () => {
  cluster = await startOwnCluster();
});
afterAll(async () => {
  worker?.kill('SIGCONT');
  worker?.kill();
  await receiver?.close();
  await cluster?.destroy();
});

/** `count` outbox rows as the scan path writes them, with the notification that wakes workers. */
async function queueDeliveries(accountId: string, count: number): Promise<void> {
  const ids = Array.from({ length: count }, () => newId('whd'));
  await sql`
    with queued as (
      insert into webhook_deliveries (id, account_id, event, body)
      select id, ${accountId}, 'scan.created', json_build_object('id', id)::text from unnest(${ids}::text[]) as b(id)
    )
    select pg_notify(${WEBHOOKS_DUE_CHANNEL}, '')`.execute(cluster.db);
}

describe('PostgreSQL crashes (pg_ctl stop -m immediate) while a standalone worker delivers', () => {
  it('sends again at most the deliveries in flight at the crash, and records every other outcome', async () => {
    const account = await createAccount(cluster.db, { name: 'Crash test', plan: 'business' });
    receiver = await startWebhookReceiver();
    await setWebhook(cluster.db, new SecretBox(TEST_WEBHOOK_SECRET_KEY), { accountId: account.id, url: receiver.url, allowPrivate: true });
    // A backlog, as after an outage: the worker drains it with nothing else committing, so its own commits are
    // all that reach the WAL (no other commit flushes them).
    await queueDeliveries(account.id, 600);
    worker = await startServiceProcess('worker', cluster.connectionString);
    await expect.poll(() => receiver!.received.length, { timeout: 10_000, interval: 20 }).toBeGreaterThan(150);

    await cluster.crash();
    // The outage itself, kept short (the bench keeps the 10 s): a window is the point here, not a condition.
    // The worker's claims and records fail meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 500));
    // The worker is paused across the restart, so the recovered state is read before it records anything. Every
    // request received by then was claimed before the crash.
    worker.kill('SIGSTOP');
    const receivedBeforeCrash = new Set(receiver.received.map((request) => String(request.headers['webhook-id'])));
    await cluster.start();
    const recovered = await sql<{ id: string; status: string; claimed_by: string | null }>`
      select id, status, claimed_by from webhook_deliveries`.execute(cluster.db);
    worker.kill('SIGCONT');
    // In flight at the crash: held by a claim (sent, or about to be) with no outcome recorded.
    const inFlight = new Set(recovered.rows.filter((row) => row.status === 'pending' && row.claimed_by !== null).map((row) => row.id));
    // Received, yet neither held nor finished: a claim the crash forgot, which the worker would make and send again.
    const forgotten = recovered.rows.filter((row) => row.status === 'pending' && row.claimed_by === null && receivedBeforeCrash.has(row.id));

    const timesReceived = new Map<string, number>();
    const countReceived = () => {
      timesReceived.clear();
      for (const request of receiver!.received) {
        const id = String(request.headers['webhook-id']);
        timesReceived.set(id, (timesReceived.get(id) ?? 0) + 1);
      }
    };
    // Every delivery finishes well within a lease (30 s): each outcome is recorded, none is left for its lease to
    // run out and send it again. The one exception is a claim the crash made durable but never answered (its
    // commit was cut off): that row was never sent, and waits for its lease.
    const unfinished = async () => {
      countReceived();
      const rows = (await sql<{ id: string }>`select id from webhook_deliveries where status <> 'succeeded'`.execute(cluster.db)).rows;
      return rows.filter((row) => timesReceived.has(row.id) || !inFlight.has(row.id)).map((row) => row.id);
    };
    await expect.poll(unfinished, { timeout: 15_000, interval: 100 }).toEqual([]);

    countReceived();
    const sentTwice = [...timesReceived].filter(([, times]) => times > 1).map(([id]) => id);
    expect(forgotten).toEqual([]);
    expect(sentTwice.filter((id) => !inFlight.has(id))).toEqual([]);
    // Every delivery arrived, but for claims the crash made durable without an answer: those wait for their lease.
    const all = (await sql<{ id: string }>`select id from webhook_deliveries`.execute(cluster.db)).rows.map((row) => row.id);
    expect(all).toHaveLength(600);
    expect(all.filter((id) => !timesReceived.has(id) && !inFlight.has(id))).toEqual([]);
    expect(worker.output()).not.toMatch(/could not be recorded/);
    expect(worker.alive(), worker.output()).toBe(true);
  }, 60_000);
});
