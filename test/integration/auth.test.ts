import { describe, expect, it } from 'vitest';
import { generateApiKey, revokeApiKey } from '../../src/accounts/api-keys.js';
import { setPlan } from '../../src/accounts/account-service.js';
import type { TestDatabase } from '../support/database.js';
import { createTestApiKey } from '../support/factories.js';
import { createTestAccount, rawRequest, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

const operations = [
  { method: 'GET', path: '/qrcodes' },
  { method: 'POST', path: '/qrcodes', body: '{"name":"x","url":"https://example.com"}' },
  { method: 'GET', path: '/qrcodes/qr_00000000000000000000000000' },
  { method: 'PATCH', path: '/qrcodes/qr_00000000000000000000000000', body: '{"active":false}' },
  { method: 'DELETE', path: '/qrcodes/qr_00000000000000000000000000' },
  { method: 'GET', path: '/qrcodes/qr_00000000000000000000000000/scans' },
];

describe('authentication', () => {
  it.each([
    ['no Authorization header', undefined],
    ['an empty bearer', 'Bearer '],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
    ['a malformed key', 'Bearer not-a-key'],
    ['a key with a wrong checksum', 'Bearer qrk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
    ['a well-formed key that does not exist', `Bearer ${generateApiKey()}`],
  ])('answers 401 invalid_api_key for %s on every operation', async (_label, authorization) => {
    for (const op of operations) {
      const res = await rawRequest(app, op.path, {
        method: op.method,
        body: op.body,
        headers: authorization ? { Authorization: authorization } : {},
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(401);
      expect(res.body.error.code).toBe('invalid_api_key');
      expect(res.headers.get('www-authenticate')).toBe('Bearer');
    }
  });

  it('answers 401 invalid_api_key for a revoked key, while the account’s other key keeps working', async () => {
    const account = await createTestAccount(database.db, app);
    const second = await createTestApiKey(database.db, app, account.accountId);
    await revokeApiKey(database.db, account.keyId);
    const revoked = await rawRequest(app, '/qrcodes', { apiKey: account.apiKey });
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('invalid_api_key');
    const other = await rawRequest(app, '/qrcodes', { apiKey: second.apiKey });
    expect(other.status).toBe(200);
  });

  it('accepts the scheme in any case', async () => {
    const account = await createTestAccount(database.db, app);
    const res = await rawRequest(app, '/qrcodes', { headers: { Authorization: `bearer ${account.apiKey}` } });
    expect(res.status).toBe(200);
  });

  it.each(['free', 'starter', 'pro'] as const)(
    'answers 403 api_not_available_on_plan for a valid key of a %s account on every operation',
    async (plan) => {
      const account = await createTestAccount(database.db, app, { plan });
      for (const op of operations) {
        const res = await rawRequest(app, op.path, { method: op.method, body: op.body, apiKey: account.apiKey });
        expect(res.status, `${op.method} ${op.path}`).toBe(403);
        expect(res.body.error.code).toBe('api_not_available_on_plan');
      }
    },
  );

  it('follows a plan change on the next request', async () => {
    const account = await createTestAccount(database.db, app);
    expect((await rawRequest(app, '/qrcodes', { apiKey: account.apiKey })).status).toBe(200);
    await setPlan(database.db, account.accountId, 'pro');
    expect((await rawRequest(app, '/qrcodes', { apiKey: account.apiKey })).status).toBe(403);
    await setPlan(database.db, account.accountId, 'business');
    expect((await rawRequest(app, '/qrcodes', { apiKey: account.apiKey })).status).toBe(200);
  });

  it('checks the key before the body: a bad body without a key is 401, with a free-plan key 403', async () => {
    const free = await createTestAccount(database.db, app, { plan: 'free' });
    const noKey = await rawRequest(app, '/qrcodes', { method: 'POST', body: '{not json' });
    expect(noKey.status).toBe(401);
    const onFree = await rawRequest(app, '/qrcodes', { method: 'POST', body: '{not json', apiKey: free.apiKey });
    expect(onFree.status).toBe(403);
  });

  it('records when a key was last used', async () => {
    const account = await createTestAccount(database.db, app);
    await rawRequest(app, '/qrcodes', { apiKey: account.apiKey });
    const row = await database.db.selectFrom('api_keys').select('last_used_at').where('id', '=', account.keyId).executeTakeFirstOrThrow();
    expect(row.last_used_at).toBeInstanceOf(Date);
  });

  it('stores only a hash of the key', async () => {
    const account = await createTestAccount(database.db, app);
    const row = await database.db.selectFrom('api_keys').selectAll().where('id', '=', account.keyId).executeTakeFirstOrThrow();
    const stored = JSON.stringify({ ...row, key_hash: row.key_hash.toString('hex') });
    expect(stored).not.toContain(account.apiKey);
    expect(stored).not.toContain(account.apiKey.slice(4, 30));
  });
});
