import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { listen, type RunningServer } from '../../src/server.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { rawHttp } from '../support/raw-http.js';
import { TEST_WEBHOOK_SECRET_KEY } from '../support/test-app.js';

/** The app with main's own logger (createLogger), writing into `lines`: what an operator's log would hold. */
let database: TestDatabase;
let server: RunningServer;
const lines: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  const config = { ...loadConfig({}), siteUrl: 'https://qr.test' };
  server = await listen(createApp({ config, db: database.db, logger, box: new SecretBox(TEST_WEBHOOK_SECRET_KEY) }), 0, '127.0.0.1');
});
afterAll(async () => {
  await server?.close(0);
  await database?.destroy();
});

it('request logs hold no CSRF token of an upload URL and no invitation or password-reset token', async () => {
  const origin = `http://127.0.0.1:${server.port}`;
  const secrets = ['csrfSecretValue123', 'inviteTokenSecret456', 'resetTokenSecret789'];
  await rawHttp(origin, { method: 'POST', path: `/imports?_csrf=${secrets[0]}&page=2`, headers: { 'content-type': 'multipart/form-data; boundary=b' }, body: '--b--\r\n' });
  await rawHttp(origin, { method: 'GET', path: `/invitations/${secrets[1]}` });
  await rawHttp(origin, { method: 'GET', path: `/password-reset/${secrets[2]}?next=/codes` });
  await expect.poll(() => lines.filter((line) => line.includes('"url"')).length).toBeGreaterThanOrEqual(3);
  const logged = lines.join('\n');
  for (const secret of secrets) expect(logged).not.toContain(secret);
  // What helps debugging stays: the path and the harmless parameters.
  expect(logged).toContain('/imports?_csrf=[redacted]&page=2');
  expect(logged).toContain('/invitations/[redacted]');
  expect(logged).toContain('/password-reset/[redacted]?next=/codes');
});
