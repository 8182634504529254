import { sql } from 'kysely';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AttemptRecorder } from '../../src/webhooks/attempt-recorder.js';
import { type AttemptRecord, recordAttemptBatch } from '../../src/webhooks/delivery-attempt.js';
import { claimDueDeliveries, type ClaimedDelivery } from '../../src/webhooks/outbox.js';
import { WebhookSender } from '../../src/webhooks/sender.js';
import type { TestDatabase } from '../support/database.js';
import type { TestApp } from '../support/test-app.js';
import { scan } from '../support/scan.js';
import { verifyServiceSignature } from '../support/webhook-receiver.js';
import { useOwnApps } from '../support/own-apps.js';

const { cleanup, setup, receiver, subscriber } = useOwnApps();

/** An AttemptRecorder of `workerId` on the test's database, as the worker makes one. */
function recorderOf(database: TestDatabase, app: TestApp, workerId: string): AttemptRecorder {
  const sender = new WebhookSender({ allowPrivateAddresses: true });
  cleanup(async () => sender.close());
  const deps = { db: database.db, box: app.box, sender, retryPolicy: { delaysMs: [60_000], jitter: (ms: number) => ms } };
  return new AttemptRecorder(deps, workerId, new AbortController().signal, pino({ level: 'silent' }));
}

function record(delivery: ClaimedDelivery, outcome: Partial<AttemptRecord> = {}): { delivery: ClaimedDelivery; record: AttemptRecord } {
  return {
    delivery,
    record: {
      attemptNumber: delivery.attemptNumber,
      startedAt: new Date(),
      status: 'succeeded',
      retryInMs: undefined,
      succeeded: true,
      gone: false,
      statusCode: 204,
      latencyMs: 3,
      error: undefined,
      responseExcerpt: '',
      ...outcome,
    },
  };
}

describe('attempt outcomes recorded together (group commit)', () => {
  it('records every attempt of a burst exactly once, in fewer statements than deliveries', async () => {
    const { database, app } = await setup({ webhooks: { worker: { pollIntervalMs: 100 } } });
    const target = await receiver();
    const { owner, code, secret } = await subscriber(database, app, target.url);
    for (let i = 0; i < 6; i++) await Promise.all(Array.from({ length: 50 }, () => scan(app, code.slug)));

    await expect
      .poll(async () => (await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where account_id = ${owner.accountId} and status = 'succeeded'`.execute(database.db)).rows[0]!.n, { timeout: 20_000 })
      .toBe(300);
    const attempts = await sql<{ delivery_id: string; attempt_number: number; status_code: number; attempt_count: number }>`
      select a.delivery_id, a.attempt_number, a.status_code, d.attempt_count
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id where d.account_id = ${owner.accountId}`.execute(database.db);
    expect(attempts.rows).toHaveLength(300);
    expect(new Set(attempts.rows.map((row) => row.delivery_id)).size).toBe(300);
    expect(attempts.rows.every((row) => row.attempt_number === 1 && row.attempt_count === 1 && row.status_code === 204)).toBe(true);
    expect(target.received).toHaveLength(300);
    expect(target.received.every((request) => verifyServiceSignature(request.rawBody, request.headers['x-service-signature'], secret))).toBe(true);
    const { statements, recorded } = app.webhooks!.worker.recordStats;
    expect(recorded).toBe(300);
    expect(statements).toBeLessThan(300);
  });

  it('records only the outcomes whose claim is still held: a lapsed claim taken by another worker writes nothing', async () => {
    const { database, app } = await setup({}, { webhookWorker: false });
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    for (let i = 0; i < 3; i++) await scan(app, code.slug);
    const claim = (workerId: string, leaseMs: number, limit: number) =>
      claimDueDeliveries(database.db, { workerId, leaseMs, limit, perAccount: limit, busy: new Map(), maxAttempts: 10 });

    // worker-first claims all three with a lease that lapses at once; worker-second then takes one of them over.
    const first = (await claim('worker-first', 0, 3)).claimed;
    expect(first).toHaveLength(3);
    const [takenOver] = (await claim('worker-second', 60_000, 1)).claimed;
    expect(takenOver!.attemptNumber).toBe(2);
    const lost = first.find((delivery) => delivery.id === takenOver!.id)!;
    const [kept, retried] = first.filter((delivery) => delivery.id !== takenOver!.id);

    const recorded = await recordAttemptBatch(database.db, 'worker-first', [
      record(kept!),
      record(retried!, { status: 'pending', succeeded: false, statusCode: 500, error: 'HTTP 500', retryInMs: 60_000 }),
      record(lost),
    ]);
    expect([...recorded.recorded].sort()).toEqual([kept!.claimToken, retried!.claimToken].sort());

    const rows = await sql<{ id: string; status: string; claimed_by: string | null; attempt_count: number; last_status_code: number | null; attempts: number }>`
      select d.id, d.status, d.claimed_by, d.attempt_count, d.last_status_code,
             (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts
      from webhook_deliveries d where d.account_id = ${owner.accountId}`.execute(database.db);
    const byId = new Map(rows.rows.map((row) => [row.id, row]));
    expect(byId.get(kept!.id)).toMatchObject({ status: 'succeeded', claimed_by: null, attempt_count: 1, last_status_code: 204, attempts: 1 });
    expect(byId.get(retried!.id)).toMatchObject({ status: 'pending', claimed_by: null, attempt_count: 1, last_status_code: 500, attempts: 1 });
    // The lapsed claim's late outcome: no attempt row, the row still the second worker's, uncounted by the first.
    expect(byId.get(lost.id)).toMatchObject({ status: 'pending', claimed_by: 'worker-second', attempt_count: 2, last_status_code: null, attempts: 0 });

    // Recording the same outcomes again (a retried statement) changes nothing: the claims are no longer held.
    expect((await recordAttemptBatch(database.db, 'worker-first', [record(kept!), record(lost)])).recorded.size).toBe(0);
    expect((await sql<{ n: number }>`select count(*)::int as n from webhook_attempts`.execute(database.db)).rows[0]!.n).toBe(2);
  });

  it("a success in a batch resets the endpoint's failure streak", async () => {
    const { database, app } = await setup({}, { webhookWorker: false });
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    await scan(app, code.slug);
    await sql`update webhook_endpoints set consecutive_failures = 7 where account_id = ${owner.accountId}`.execute(database.db);
    const [delivery] = (await claimDueDeliveries(database.db, { workerId: 'worker-one', leaseMs: 60_000, limit: 1, perAccount: 1, busy: new Map(), maxAttempts: 10 })).claimed;

    expect((await recordAttemptBatch(database.db, 'worker-one', [record(delivery!)])).recorded.size).toBe(1);
    const endpoint = await database.db.selectFrom('webhook_endpoints').select('consecutive_failures').where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(endpoint.consecutive_failures).toBe(0);
  });

  it('records the claim a crash made again, once, beside the others: the forgotten claim of the same worker and number records nothing', async () => {
    const { database, app } = await setup({}, { webhookWorker: false });
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    await scan(app, code.slug);
    await scan(app, code.slug);
    const claim = async () =>
      (await claimDueDeliveries(database.db, { workerId: 'worker-one', leaseMs: 60_000, limit: 2, perAccount: 2, busy: new Map(), maxAttempts: 10 })).claimed;
    const ids = (await database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', owner.accountId).execute()).map((row) => row.id);
    // What a PostgreSQL crash does to a claim committed asynchronously: the rows come back as they were before it.
    await sql`create table rows_before_claim as select * from webhook_deliveries where id = any(${ids}::text[])`.execute(database.db);
    const forgotten = await claim();
    await sql`delete from webhook_deliveries where id = any(${ids}::text[])`.execute(database.db);
    await sql`insert into webhook_deliveries select * from rows_before_claim`.execute(database.db);
    // The same worker claims both again, with the same attempt number, and sends again.
    const again = await claim();
    expect(again.map((d) => d.attemptNumber)).toEqual([1, 1]);
    const [first, other] = again;
    const stale = forgotten.find((d) => d.id === first!.id)!;

    // The forgotten claim's outcome and the new claim's finish while the recorder's statement for the other runs:
    // the next group commit takes both.
    const recorder = recorderOf(database, app, 'worker-one');
    const outcomes = await Promise.allSettled([
      recorder.record(other!, record(other!).record),
      recorder.record(stale, record(stale).record),
      recorder.record(first!, record(first!).record),
    ]);
    expect(outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.recorded : String(outcome.reason)))).toEqual([true, false, true]);
    const rows = await sql<{ status: string; attempts: number }>`
      select d.status, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts
      from webhook_deliveries d where d.account_id = ${owner.accountId}`.execute(database.db);
    expect(rows.rows).toEqual([{ status: 'succeeded', attempts: 1 }, { status: 'succeeded', attempts: 1 }]);
  });

  it('an attempt row already there does not keep the rest of the batch from being recorded', async () => {
    const { database, app } = await setup({}, { webhookWorker: false });
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    for (let i = 0; i < 3; i++) await scan(app, code.slug);
    const claimed = (await claimDueDeliveries(database.db, { workerId: 'worker-one', leaseMs: 60_000, limit: 3, perAccount: 3, busy: new Map(), maxAttempts: 10 })).claimed;
    const [conflicting] = claimed;
    // Attempt 1 of one delivery is already logged (as another version's claim may have left it).
    await sql`insert into webhook_attempts (delivery_id, attempt_number, started_at, url, latency_ms) values (${conflicting!.id}, 1, now(), ${target.url}, 1)`.execute(database.db);

    const recorder = recorderOf(database, app, 'worker-one');
    const outcomes = await Promise.all(claimed.map((delivery) => recorder.record(delivery, record(delivery).record)));
    expect(outcomes.map((outcome) => outcome.recorded)).toEqual([true, true, true]);
    const rows = await sql<{ status: string; claimed_by: string | null; attempts: number }>`
      select d.status, d.claimed_by, (select count(*)::int from webhook_attempts a where a.delivery_id = d.id) as attempts
      from webhook_deliveries d where d.account_id = ${owner.accountId}`.execute(database.db);
    expect(rows.rows).toEqual(Array.from({ length: 3 }, () => ({ status: 'succeeded', claimed_by: null, attempts: 1 })));
    expect(recorder.stats.attemptRowsKept).toBe(1);
  });
});
