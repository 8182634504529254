import { describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import {
  ApiKeyNameError,
  createApiKey,
  listApiKeys,
  revokeAccountApiKey,
} from '../../src/accounts/api-keys.js';
import { newId } from '../../src/ids.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

async function newUser(accountId: string, email: string): Promise<string> {
  const id = newId('usr');
  await database.db.insertInto('users').values({ id, account_id: accountId, email, role: 'owner', password_hash: 'unused' }).execute();
  return id;
}

describe('API keys in the dashboard', () => {
  it('lists working keys newest first, then revoked ones, with name, prefix, last four, maker and last use', async () => {
    const account = await createTestAccount(database.db, app); // its key comes from the CLI's path: no name, no maker
    const userId = await newUser(account.accountId, 'owner@example.com');
    const deploys = await createApiKey(database.db, account.accountId, { name: ' CI deploys ', createdByUserId: userId });
    const crm = await createApiKey(database.db, account.accountId, { name: 'CRM', createdByUserId: userId });
    expect((await revokeAccountApiKey(database.db, { accountId: account.accountId, keyId: deploys.id }))?.id).toBe(deploys.id);
    expect((await rawRequest(app, '/qrcodes', { apiKey: crm.key })).status).toBe(200);

    const keys = await listApiKeys(database.db, account.accountId);
    expect(keys.map((k) => k.id)).toEqual([crm.id, account.keyId, deploys.id]);
    expect(keys[0]).toEqual({
      id: crm.id,
      name: 'CRM',
      prefix: crm.key.slice(0, 8),
      lastFour: crm.key.slice(-4),
      createdAt: expect.any(Date),
      createdBy: { userId, email: 'owner@example.com' },
      lastUsedAt: expect.any(Date),
      revokedAt: null,
    });
    expect(keys[1]).toMatchObject({ name: null, createdBy: null, lastUsedAt: null, revokedAt: null });
    expect(keys[2]).toMatchObject({ name: 'CI deploys', revokedAt: expect.any(Date) });
    expect(JSON.stringify(keys)).not.toContain(crm.key);
  });

  it('revokes only the account’s own keys: another account’s key id is left working', async () => {
    const mine = await createTestAccount(database.db, app);
    const theirs = await createTestAccount(database.db, app);
    expect(await revokeAccountApiKey(database.db, { accountId: mine.accountId, keyId: theirs.keyId })).toBeUndefined();
    expect(await revokeAccountApiKey(database.db, { accountId: mine.accountId, keyId: 'key_\u0000' })).toBeUndefined();
    expect((await rawRequest(app, '/qrcodes', { apiKey: theirs.apiKey })).status).toBe(200);
    expect(await listApiKeys(database.db, mine.accountId)).toHaveLength(1);
  });

  it('answers the next API call with a revoked key with 401, and keeps the first revocation time', async () => {
    const account = await createTestAccount(database.db, app);
    const first = await revokeAccountApiKey(database.db, { accountId: account.accountId, keyId: account.keyId });
    const res = await rawRequest(app, '/qrcodes', { apiKey: account.apiKey });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    expect(await revokeAccountApiKey(database.db, { accountId: account.accountId, keyId: account.keyId })).toEqual(first);
  });

  it('stores a blank name as none and refuses a name over 100 characters or with control characters', async () => {
    const { id: accountId } = await createAccount(database.db, { name: 'Names', plan: 'business' });
    const blank = await createApiKey(database.db, accountId, { name: '   ' });
    const longest = await createApiKey(database.db, accountId, { name: 'k'.repeat(100) });
    await expect(createApiKey(database.db, accountId, { name: 'k'.repeat(101) })).rejects.toThrow(ApiKeyNameError);
    await expect(createApiKey(database.db, accountId, { name: 'a\u0000b' })).rejects.toThrow(ApiKeyNameError);
    const names = Object.fromEntries((await listApiKeys(database.db, accountId)).map((k) => [k.id, k.name]));
    expect(names).toEqual({ [blank.id]: null, [longest.id]: 'k'.repeat(100) });
  });

  it('shows no maker once that person is removed, and keeps the key', async () => {
    const account = await createTestAccount(database.db, app);
    const userId = await newUser(account.accountId, 'leaver@example.com');
    const key = await createApiKey(database.db, account.accountId, { name: 'Old', createdByUserId: userId });
    await database.db.deleteFrom('users').where('id', '=', userId).execute();
    expect((await listApiKeys(database.db, account.accountId)).find((k) => k.id === key.id)).toMatchObject({ name: 'Old', createdBy: null });
  });
});
