import { describe, expect, it } from 'vitest';
import { createAccount, setCodeLimit } from '../../src/accounts/account-service.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let appA: TestApp;
let appB: TestApp;

useTestApp(async (started) => {
  ({ database, app: appA } = started);
  appB = await started.startAnother();
});

const body = JSON.stringify({ name: 'limited', url: 'https://example.com/' });

describe('dynamic-code limit', () => {
  it('gives Business accounts 1000 codes unless overridden', async () => {
    expect((await createAccount(database.db, { name: 'b', plan: 'business' })).codeLimit).toBe(1000);
    expect((await createAccount(database.db, { name: 'b', plan: 'business', codeLimit: 5000 })).codeLimit).toBe(5000);
  });

  it('lets exactly `limit` of 20 concurrent creates through on two instances; the rest get 402 with limit and used', async () => {
    const account = await createTestAccount(database.db, appA, { codeLimit: 5 });
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => rawRequest(i % 2 ? appA : appB, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    const refused = results.filter((r) => r.status === 402);
    expect(refused).toHaveLength(15);
    for (const res of refused) {
      expect(res.body.error.code).toBe('plan_limit_reached');
      expect(res.body.error.details).toEqual({ limit: 5, used: 5 });
    }
    const { data } = await account.client.raw.GET('/qrcodes', {});
    expect(data!.data).toHaveLength(5);
  });

  it('does not count deleted codes', async () => {
    const account = await createTestAccount(database.db, appA, { codeLimit: 2 });
    const first = await account.client.raw.POST('/qrcodes', { body: { name: 'a', url: 'https://example.com/a' } });
    await account.client.raw.POST('/qrcodes', { body: { name: 'b', url: 'https://example.com/b' } });
    const third = await account.client.raw.POST('/qrcodes', { body: { name: 'c', url: 'https://example.com/c' } });
    expect(third.response.status).toBe(402);
    await account.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: first.data!.data.id } } });
    const again = await account.client.raw.POST('/qrcodes', { body: { name: 'c', url: 'https://example.com/c' } });
    expect(again.response.status).toBe(201);
  });

  it('applies a lowered limit to new creates and keeps existing codes', async () => {
    const account = await createTestAccount(database.db, appA, { codeLimit: 3 });
    for (const n of [1, 2, 3]) await account.client.raw.POST('/qrcodes', { body: { name: `${n}`, url: 'https://example.com/' } });
    await setCodeLimit(database.db, account.accountId, 1);
    const refused = await account.client.raw.POST('/qrcodes', { body: { name: 'x', url: 'https://example.com/' } });
    expect(refused.response.status).toBe(402);
    expect(refused.error!.error.details).toEqual({ limit: 1, used: 3 });
    const { data } = await account.client.raw.GET('/qrcodes', {});
    expect(data!.data).toHaveLength(3);
  });

  it('validates the body before checking the limit', async () => {
    const account = await createTestAccount(database.db, appA, { codeLimit: 0 });
    const invalid = await rawRequest(appA, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: '{"name":"x"}' });
    expect(invalid.status).toBe(400);
    const valid = await rawRequest(appA, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body });
    expect(valid.status).toBe(402);
  });
});
