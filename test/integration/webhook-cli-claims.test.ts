import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { getDelivery } from '../../src/webhooks/delivery-service.js';
import type { TestDatabase } from '../support/database.js';
import { scan } from '../support/scan.js';
import { createTestAccount, TEST_WEBHOOK_SECRET_KEY, type TestApp, useTestApp } from '../support/test-app.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';
import { createTestCode } from '../support/factories.js';
import { runCli } from '../support/cli.js';


/**
 * A TCP proxy to PostgreSQL that holds every chunk for `delayMs` each way: the admin CLI run from an operator's
 * laptop against a database in another region. The server's worker sits next to the database and wins every race.
 */
async function slowLink(target: URL, delayMs: number): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(from);
      from.on('data', (chunk) => setTimeout(() => to.writable && to.write(chunk), delayMs));
      from.on('end', () => setTimeout(() => to.end(), delayMs));
      from.on('error', () => to.destroy());
      from.on('close', () => sockets.delete(from));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: url.toString(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}


describe('the admin CLI attempting a delivery while a worker runs', { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let app: TestApp;
  let link: Awaited<ReturnType<typeof slowLink>>;
  let env: NodeJS.ProcessEnv;

  // A worker that polls often and listens for inserts: it takes anything due within milliseconds.
  useTestApp((started) => ({ database, app } = started), {}, { tuning: { webhooks: { retryPolicy: { delaysMs: [], jitter: (ms) => ms }, worker: { pollIntervalMs: 20 } } } });
  beforeAll(async () => {
    link = await slowLink(new URL(database.connectionString), 60);
    env = { ...process.env, DATABASE_URL: link.url, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY.toString('base64'), ALLOW_PRIVATE_WEBHOOK_URLS: 'true' };
  });
  afterAll(async () => {
    await link?.close();
  });

  it('webhook test: the receiver gets exactly one request, sent and reported by the CLI', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { accountId } = await createTestAccount(database.db, app);
      await setWebhook(database.db, app.box, { accountId, url: receiver.url, allowPrivate: true });

      const result = await runCli(['webhook', 'test', '--account', accountId], env);
      expect(result, result.stderr).toMatchObject({ code: 0 });
      const outcome = JSON.parse(result.stdout);
      expect(outcome).toMatchObject({ attemptNumber: 1, status: 'succeeded', statusCode: 204, recorded: true });
      expect(receiver.received).toHaveLength(1);
      expect(receiver.received[0]!.headers['webhook-id']).toBe(outcome.deliveryId);
      // Finished: no worker can send it again.
      expect(await getDelivery(database.db, outcome.deliveryId)).toMatchObject({ status: 'succeeded', attemptCount: 1, attempts: [expect.objectContaining({ attemptNumber: 1 })] });
      expect(app.webhooks!.worker.stats.succeeded).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it('webhook redeliver: one more request, sent and reported by the CLI', async () => {
    const receiver = await startWebhookReceiver();
    try {
      receiver.respondWith(() => ({ status: 500 }));
      const { accountId, client } = await createTestAccount(database.db, app);
      await setWebhook(database.db, app.box, { accountId, url: receiver.url, allowPrivate: true });
      await scan(app, (await createTestCode({ client }, { name: 'Flyer' })).slug);
      const [first] = await receiver.waitFor(1);
      const id = String(first!.headers['webhook-id']);
      await expect.poll(async () => (await getDelivery(database.db, id)).status, { timeout: 10_000 }).toBe('failed');

      receiver.respondWith(() => ({ status: 204 }));
      const result = await runCli(['webhook', 'redeliver', '--id', id], env);
      expect(result, result.stderr).toMatchObject({ code: 0 });
      expect(JSON.parse(result.stdout)).toMatchObject({ deliveryId: id, attemptNumber: 2, status: 'succeeded', statusCode: 204 });
      expect(receiver.received).toHaveLength(2);
      expect(await getDelivery(database.db, id)).toMatchObject({ status: 'succeeded', attemptCount: 2 });
    } finally {
      await receiver.close();
    }
  });
});
