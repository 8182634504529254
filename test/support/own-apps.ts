import { afterEach } from 'vitest';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { createTestCode } from './factories.js';
import { createTestAccount, startTestApp, type TestApp } from './test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/**
 * For tests that each need a database and an app of their own (tuned for what they check, and so no other worker
 * takes their rows). Everything `setup`, `receiver` and `subscriber` start is closed after each test, newest
 * first; `cleanup` adds anything else a test starts.
 */
export function useOwnApps() {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const cleanup = (step: () => Promise<void>) => void cleanups.push(step);
  return {
    cleanup,
    async setup(tuning: Parameters<typeof startTestApp>[2] = {}, overrides: Parameters<typeof startTestApp>[1] = {}) {
      const database = await createTestDatabase();
      cleanup(() => database.destroy());
      const app = await startTestApp(database, overrides, tuning);
      cleanup(() => app.close());
      return { database, app };
    },
    async receiver(): Promise<WebhookReceiver> {
      const started = await startWebhookReceiver();
      cleanup(() => started.close());
      return started;
    },
    /** An account with a webhook to `url` and one code. */
    async subscriber(database: TestDatabase, app: TestApp, url: string) {
      const owner = await createTestAccount(database.db, app);
      const settings = await setWebhook(database.db, app.box, { accountId: owner.accountId, url, allowPrivate: true });
      return { owner, code: await createTestCode(owner), secret: settings.secret! };
    },
  };
}
