import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_WORKER_OPTIONS } from '../../src/webhooks/worker.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { freePort } from '../../src/net.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { createTestCode } from '../support/factories.js';
import { type ServiceProcess, startServiceProcess } from '../support/processes.js';

let database: TestDatabase;
let app: TestApp;
let server: ServiceProcess | undefined;

useTestApp((started) => ({ database, app } = started));
afterAll(() => {
  server?.kill('SIGKILL');
});

describe('kill -9 of the server during a burst of scans', () => {
  it('loses no scan that was answered with a 302, and no webhook of a committed scan', async () => {
    const owner = await createTestAccount(database.db, app);
    const receiver = await startWebhookReceiver();
    await setWebhook(database.db, app.box, { accountId: owner.accountId, url: receiver.url, allowPrivate: true });
    const code = await createTestCode(owner, { name: 'Crash poster' });
    const port = await freePort();
    server = await startServiceProcess('server', database.connectionString, {}, port);

    // The load generator logs every 302 it received, each scan marked with its own referrer host.
    const received: string[] = [];
    let unanswered = 0;
    let stop = false;
    const worker = async (w: number) => {
      for (let n = 0; !stop; n++) {
        const marker = `w${w}-n${n}.load.test`;
        try {
          const res = await fetch(`http://127.0.0.1:${port}/r/${code.slug}`, {
            redirect: 'manual',
            headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36', Referer: `https://${marker}/` },
          });
          if (res.status === 302) received.push(marker);
        } catch {
          // the server is gone: this request got no answer, so it promises nothing
          unanswered++;
        }
      }
    };
    const workers = Array.from({ length: 64 }, (_, w) => worker(w));
    // Killed mid-burst, once the load is well under way; the load goes on until requests find the server gone.
    await expect.poll(() => received.length, { timeout: 30_000, interval: 20 }).toBeGreaterThan(200);
    server.kill('SIGKILL');
    await expect.poll(() => unanswered, { timeout: 10_000, interval: 20 }).toBeGreaterThan(0);
    stop = true;
    await Promise.all(workers);
    expect(received.length).toBeGreaterThan(100);

    // The database's clock as the server restarts: claims the killed worker made end before this plus the lease.
    const { rows: [restart] } = await sql<{ at: Date }>`select now() as at`.execute(database.db);
    server = await startServiceProcess('server', database.connectionString, {}, port); // restart: nothing to replay, the scans were committed before each 302
    const rows = await database.db.selectFrom('scans').select('referrer_host').where('qr_code_id', '=', code.id).execute();
    const recorded = new Set(rows.map((r) => r.referrer_host));
    const missing = received.filter((marker) => !recorded.has(marker));
    expect(missing).toEqual([]);
    expect((await scanCountsOf(database.db, code.id)).scans).toBe(rows.length);

    // Every committed scan has its outbox row, and every one reaches the receiver: rows the killed worker had
    // claimed become due again when their lease runs out. At-least-once: duplicates are allowed.
    const deliveries = await database.db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', owner.accountId).execute();
    expect(deliveries).toHaveLength(rows.length);
    // The lease is 30 s; the clock moves past it for the killed worker's claims rather than the test waiting it out.
    // The new server's own claims (leased from the restart on) are left alone.
    await sql`
      update webhook_deliveries set next_attempt_at = now()
      where account_id = ${owner.accountId} and status = 'pending'
        and next_attempt_at > now() and next_attempt_at < ${restart!.at}::timestamptz + ${DEFAULT_WORKER_OPTIONS.leaseMs} * interval '1 millisecond'`.execute(database.db);
    const delivered = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    await expect.poll(() => deliveries.filter((d) => !delivered().has(d.id)), { timeout: 20_000, interval: 200 }).toEqual([]);
    server.kill('SIGTERM');
    await receiver.close();
  }, 120_000);
});
