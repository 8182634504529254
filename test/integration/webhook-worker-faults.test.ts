import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { scan } from '../support/scan.js';
import { useOwnApps } from '../support/own-apps.js';

const { cleanup, setup, subscriber } = useOwnApps();

/** A receiver whose answers wait until the test says so (`answer`), or forever. */
async function heldReceiver() {
  const waiting: http.ServerResponse[] = [];
  const ids: string[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      ids.push(String(req.headers['webhook-id']));
      waiting.push(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanup(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    ids,
    answer: (status: number) => waiting.splice(0).forEach((res) => res.writeHead(status).end()),
  };
}

describe('the worker when the database fails it mid-flight', () => {
  it('a claim that raced the stop and cannot be released is logged, never an unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanup(async () => void process.off('unhandledRejection', onUnhandled));

    const { database, app } = await setup({ webhooks: { worker: { concurrency: 4, perAccountConcurrency: 1, pollIntervalMs: 50 } } });
    // The database refuses every release (a claim given back, due at once), as it would while going away.
    await sql`
      create function refuse_releases() returns trigger language plpgsql as $$
      begin
        if old.claimed_by is not null and new.claimed_by is null and new.status = 'pending' and new.next_attempt_at <= now() then
          raise exception 'releases refused' using errcode = '57P03';
        end if;
        return new;
      end $$`.execute(database.db);
    await sql`create trigger refuse_releases before update on webhook_deliveries for each row execute function refuse_releases()`.execute(database.db);

    const chained = await heldReceiver();
    const hanging = await heldReceiver();
    const a = await subscriber(database, app, chained.url);
    const b = await subscriber(database, app, hanging.url);
    await scan(app, a.code.slug);
    await scan(app, a.code.slug);
    await scan(app, b.code.slug);
    // One slot per account: the account's second delivery waits until the first one's success lets the bound grow.
    await expect.poll(() => chained.ids.length + hanging.ids.length, { timeout: 10_000 }).toBe(2);

    // Hold the first delivery's row so its record waits; the worker claims the account's second delivery meanwhile.
    const blocker = new pg.Client({ connectionString: database.connectionString });
    await blocker.connect();
    cleanup(() => blocker.end());
    await blocker.query('begin');
    await blocker.query('select 1 from webhook_deliveries where id = $1 for update', [chained.ids[0]]);
    chained.answer(200);
    // Asked on a connection of its own: inside the blocker's transaction, pg_stat_activity is read once and kept.
    await expect
      .poll(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()`.execute(database.db)).rows[0]!.n, { timeout: 10_000 })
      .toBe(1);
    // The success let the account's bound grow: its second delivery is claimed and sent (and held) meanwhile.
    await expect.poll(() => chained.ids.length, { timeout: 10_000 }).toBe(2);

    // Stop while the record is in flight; the held attempts keep stop waiting, then are aborted and cannot be released.
    const stopping = app.webhooks!.worker.stop(1_500);
    await blocker.query('commit');
    const stopped = await stopping.then(() => 'resolved', (error: unknown) => error);
    expect(unhandled).toEqual([]);
    expect(stopped).toBe('resolved');
    const rows = await database.db.selectFrom('webhook_deliveries').select(['account_id', 'status', 'claimed_by']).orderBy('id').execute();
    // The second delivery stays claimed until its lease ends (then any worker takes it); nothing was lost.
    expect(rows.filter((r) => r.account_id === a.owner.accountId).map((r) => r.status)).toEqual(['succeeded', 'pending']);
    expect(rows.find((r) => r.account_id === a.owner.accountId && r.status === 'pending')!.claimed_by).toBe(app.webhooks!.worker.id);
  });
});
