import net, { type AddressInfo } from 'node:net';
import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/db/migrations/index.js';
import { attemptDelivery } from '../../src/webhooks/delivery-attempt.js';
import { getDelivery } from '../../src/webhooks/delivery-service.js';
import { claimDueDeliveries } from '../../src/webhooks/outbox.js';
import { WebhookSender } from '../../src/webhooks/sender.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { scan } from '../support/scan.js';
import { useOwnApps } from '../support/own-apps.js';

const { cleanup, setup, receiver, subscriber } = useOwnApps();

/** A raw TCP receiver that answers every request with exactly these bytes (what an HTTP server library would not send). */
async function rawReceiver(answer: Buffer): Promise<{ url: string; requests: () => number }> {
  let requests = 0;
  const server = net.createServer((socket) => {
    socket.on('data', (chunk) => {
      if (!chunk.includes('\r\n\r\n')) return;
      requests++;
      socket.end(answer);
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup(() => new Promise((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, requests: () => requests };
}

async function onlyDelivery(database: TestDatabase, accountId: string) {
  const row = await database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId).executeTakeFirstOrThrow();
  return getDelivery(database.db, row.id);
}

const FAST = { delaysMs: [100, 100], jitter: (ms: number) => ms };

describe('answers PostgreSQL text cannot hold', () => {
  it.each([
    ['a NUL byte', Buffer.from('ok\u0000done'), 'ok\uFFFDdone'],
    ['invalid UTF-8', Buffer.from([0x6f, 0x6b, 0xff, 0xfe, 0xc3, 0x28]), 'ok\uFFFD\uFFFD\uFFFD('],
  ])('an answer with %s is recorded (replaced by U+FFFD) and counted, once', async (_label, body, stored) => {
    const { database, app } = await setup({ webhooks: { retryPolicy: FAST, worker: { pollIntervalMs: 50, leaseMs: 500 } } });
    const head = `HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
    const target = await rawReceiver(Buffer.concat([Buffer.from(head), body]));
    const { owner, code } = await subscriber(database, app, target.url);
    expect(await scan(app, code.slug)).toBe(302);

    await expect.poll(async () => (await onlyDelivery(database, owner.accountId)).status, { timeout: 10_000 }).toBe('succeeded');
    const delivery = await onlyDelivery(database, owner.accountId);
    expect(delivery.attemptCount).toBe(1);
    expect(delivery.attempts).toEqual([expect.objectContaining({ attemptNumber: 1, statusCode: 200, error: null, responseBody: stored })]);
    expect(target.requests()).toBe(1);
  });
});

describe('an attempt whose record fails for another reason (the database refuses the write)', () => {
  it('is counted anyway: retried within the schedule, then failed, never sent forever', async () => {
    const { database, app } = await setup({ webhooks: { retryPolicy: FAST, worker: { pollIntervalMs: 50, leaseMs: 300 } } });
    // Every attempt record fails, as when the database goes away between the request and its record.
    await sql`
      create function refuse_attempts() returns trigger language plpgsql as $$
      begin raise exception 'attempt log unavailable' using errcode = '58030'; end $$`.execute(database.db);
    await sql`create trigger refuse_attempts before insert on webhook_attempts for each row execute function refuse_attempts()`.execute(database.db);
    const target = await receiver();
    const { owner, code } = await subscriber(database, app, target.url);
    await scan(app, code.slug);

    await expect.poll(async () => (await onlyDelivery(database, owner.accountId)).status, { timeout: 15_000 }).toBe('failed');
    const delivery = await onlyDelivery(database, owner.accountId);
    // The schedule allows 3 attempts (the first and two retries): each reached the receiver, none could be logged.
    expect(delivery).toMatchObject({ attemptCount: 3, lastError: expect.stringMatching(/outcome was never recorded/) });
    expect(target.received).toHaveLength(3);
    expect(app.webhooks!.worker.stats.abandoned).toBe(1);
  });
});

describe('a claim that lapsed and was taken over', () => {
  it('records nothing when its late outcome arrives: no attempt row, no state change, no streak', async () => {
    const { database, app } = await setup({}, { webhookWorker: false });
    const target = await receiver();
    target.respondWith(() => ({ status: 500 }));
    const { owner, code } = await subscriber(database, app, target.url);
    await scan(app, code.slug);
    const claim = (workerId: string) =>
      claimDueDeliveries(database.db, { workerId, leaseMs: 0, limit: 1, perAccount: 1, busy: new Map(), maxAttempts: 10 });

    const [first] = (await claim('worker-first')).claimed; // its lease (0 ms) lapses at once
    const [second] = (await claim('worker-second')).claimed;
    expect([first!.attemptNumber, second!.attemptNumber]).toEqual([1, 2]);

    const sender = new WebhookSender({ allowPrivateAddresses: true });
    cleanup(async () => sender.close());
    const late = await attemptDelivery({ db: database.db, box: app.box, sender, retryPolicy: { delaysMs: [], jitter: (ms) => ms } }, first!, { workerId: 'worker-first' });
    expect(target.received).toHaveLength(1);

    const delivery = await onlyDelivery(database, owner.accountId);
    expect(delivery).toMatchObject({ status: 'pending', attemptCount: 2, lastError: null, attempts: [] });
    const endpoint = await database.db.selectFrom('webhook_endpoints').selectAll().where('account_id', '=', owner.accountId).executeTakeFirstOrThrow();
    expect(endpoint).toMatchObject({ consecutive_failures: 0, disabled_at: null });
    const row = await database.db.selectFrom('webhook_deliveries').select('claimed_by').where('id', '=', delivery.id).executeTakeFirstOrThrow();
    expect(row.claimed_by).toBe('worker-second');
    expect(late).toMatchObject({ recorded: false, statusCode: 500 });
  });
});

describe('the attempt log migration', () => {
  it('keeps duplicate attempt numbers from before as consecutive attempts, then allows one row per number', async () => {
    const database = await createTestDatabase();
    cleanup(() => database.destroy());
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    const down = await migrator.migrateTo('20261122T1200-webhooks');
    expect(down.error).toBeUndefined();

    await sql`insert into accounts (id, name, plan) values ('acc_migration', 'Old', 'business')`.execute(database.db);
    await sql`insert into webhook_deliveries (id, account_id, event, body, status, attempt_count)
              values ('whd_migration', 'acc_migration', 'scan.created', '{}', 'succeeded', 2)`.execute(database.db);
    // Two workers logged attempt 2 (a lapsed claim's late record), the old code's defect.
    for (const n of [1, 2, 2]) {
      await sql`insert into webhook_attempts (delivery_id, attempt_number, started_at, url, latency_ms)
                values ('whd_migration', ${n}, now(), 'https://hooks.example.com/', 1)`.execute(database.db);
    }

    const up = await migrator.migrateToLatest();
    expect(up.error).toBeUndefined();
    const attempts = await database.db.selectFrom('webhook_attempts').select('attempt_number').where('delivery_id', '=', 'whd_migration').orderBy('id').execute();
    expect(attempts.map((a) => a.attempt_number)).toEqual([1, 2, 3]);
    const delivery = await database.db.selectFrom('webhook_deliveries').select('attempt_count').where('id', '=', 'whd_migration').executeTakeFirstOrThrow();
    expect(delivery.attempt_count).toBe(3);
    await expect(
      sql`insert into webhook_attempts (delivery_id, attempt_number, started_at, url, latency_ms)
          values ('whd_migration', 3, now(), 'https://hooks.example.com/', 1)`.execute(database.db),
    ).rejects.toThrow(/webhook_attempts_one_per_number/);
  });
});
