import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { LINK_TOKEN_PATHS, newLinkToken } from '../../src/people/tokens.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp } from '../support/dashboard.js';
import { rawHttp } from '../support/raw-http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The app with main's own logger (createLogger), writing into `lines`: what an operator's log would hold. */
let database: TestDatabase;
let app: TestApp;
const lines: string[] = [];

useTestDatabase((created) => (database = created));
// The point is main's logger (createLogger), which test apps otherwise replace by a silent one.
beforeAll(async () => {
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger({ level: 'info', destination });
  app = await startTestApp(database, { webhookWorker: false }, { logger });
});
afterAll(async () => {
  await app?.close();
});

it('request logs hold no CSRF token of an upload URL and no invitation or password-reset token', async () => {
  const { origin } = app;
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

it('request logs hold no token of any link mailed or shown, whichever method, letter case or shape reaches the route', async () => {
  const { origin } = app;
  const before = lines.length;
  // Every kind of link the people service makes (LINK_TOKEN_PATHS), a sign-up confirmation included: its token
  // creates an account for whoever posts it first.
  const paths = Object.values(LINK_TOKEN_PATHS);
  expect(paths).toContain('/signup/confirm/');
  const secrets: string[] = [];
  for (const [index, prefix] of paths.entries()) {
    const shaped = newLinkToken();
    const unshaped = `secretToken${index}Unshaped`;
    secrets.push(shaped, unshaped);
    await rawHttp(origin, { method: 'GET', path: `${prefix}${shaped}` });
    await rawHttp(origin, { method: 'POST', path: `${prefix}${unshaped}`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'password=x' });
    // Express matches routes whatever the letter case, so an upper-cased path reaches the same action.
    const upper = `upperToken${index}Secret`;
    secrets.push(upper);
    await rawHttp(origin, { method: 'GET', path: `${prefix.toUpperCase()}${upper}` });
  }
  // A token-shaped segment under a path not (yet) in the list is taken for a secret too.
  const stray = newLinkToken();
  secrets.push(stray);
  await rawHttp(origin, { method: 'GET', path: `/some-future-link/${stray}?page=1` });
  await expect.poll(() => lines.slice(before).filter((line) => line.includes('"url"')).length).toBeGreaterThanOrEqual(paths.length * 3 + 1);
  const logged = lines.slice(before).join('\n');
  for (const secret of secrets) expect(logged).not.toContain(secret);
  expect(logged).toContain('/signup/confirm/[redacted]');
  expect(logged).toContain('/some-future-link/[redacted]?page=1');
});

it('request logs hold no session cookie, neither the one set at sign-in nor the one sent back', async () => {
  const before = lines.length;
  const person = await createPerson(database.db);
  const http = await dashboardHttp(app, person); // signs in through the form: the answer sets the session cookie
  const session = /qroute_session=([^;]+)/.exec(http.cookie)?.[1];
  expect(session, http.cookie).toBeTruthy();
  await http.get('/codes');
  await expect.poll(() => lines.slice(before).filter((line) => line.includes('/codes')).length).toBeGreaterThanOrEqual(1);
  const logged = lines.slice(before).join('\n');
  expect(logged).not.toContain(session);
  expect(logged).not.toContain(http.csrfToken);
});
