import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

describe('Idempotency-Key on POST /qrcodes', () => {
  it('replays the first answer for a retry with the same key and body, creating one code', async () => {
    const account = await createTestAccount(database.db, app);
    const key = randomUUID();
    const send = (body: string) =>
      rawRequest(app, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body, headers: { 'Idempotency-Key': key } });
    const first = await send('{"name":"Poster","url":"https://example.com/"}');
    const retry = await send('{"url":"https://example.com/","name":"Poster"}'); // same body, other key order
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const { data } = await account.client.raw.GET('/qrcodes', {});
    expect(data!.data).toHaveLength(1);
  });

  it('creates one code for concurrent requests with the same key', async () => {
    const account = await createTestAccount(database.db, app);
    const key = randomUUID();
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        rawRequest(app, '/qrcodes', {
          method: 'POST',
          apiKey: account.apiKey,
          body: '{"name":"Poster","url":"https://example.com/"}',
          headers: { 'Idempotency-Key': key },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(results.map((r) => r.body.data.id)).size).toBe(1);
  });

  it('answers 422 idempotency_key_reused for the same key with another body', async () => {
    const account = await createTestAccount(database.db, app);
    const headers = { 'Idempotency-Key': 'order-42' };
    await rawRequest(app, '/qrcodes', { method: 'POST', apiKey: account.apiKey, headers, body: '{"name":"a","url":"https://example.com/"}' });
    const reused = await rawRequest(app, '/qrcodes', {
      method: 'POST', apiKey: account.apiKey, headers, body: '{"name":"b","url":"https://example.com/"}',
    });
    expect(reused.status).toBe(422);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
  });

  it('keeps keys per account', async () => {
    const one = await createTestAccount(database.db, app);
    const two = await createTestAccount(database.db, app);
    const send = (apiKey: string) => rawRequest(app, '/qrcodes', {
      method: 'POST', apiKey, headers: { 'Idempotency-Key': 'shared' }, body: '{"name":"a","url":"https://example.com/"}',
    });
    const a = await send(one.apiKey);
    const b = await send(two.apiKey);
    expect(a.body.data.id).not.toBe(b.body.data.id);
  });

  it('does not remember a failed request, so it can be retried with the same key', async () => {
    const account = await createTestAccount(database.db, app, { codeLimit: 0 });
    const send = () => rawRequest(app, '/qrcodes', {
      method: 'POST', apiKey: account.apiKey, headers: { 'Idempotency-Key': 'retry-me' }, body: '{"name":"a","url":"https://example.com/"}',
    });
    expect((await send()).status).toBe(402);
    await database.db.updateTable('accounts').set({ code_limit: 1 }).where('id', '=', account.accountId).execute();
    expect((await send()).status).toBe(201);
  });

  it('answers 400 invalid_header for a key with spaces', async () => {
    const account = await createTestAccount(database.db, app);
    const res = await rawRequest(app, '/qrcodes', {
      method: 'POST', apiKey: account.apiKey, headers: { 'Idempotency-Key': 'has space' }, body: '{"name":"a","url":"https://example.com/"}',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_header');
    expect(res.body.error.details[0].path).toBe('/headers/idempotency-key');
  });
});
