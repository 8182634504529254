import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/v1.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

type QrCode = components['schemas']['QrCode'];

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

async function createCodes(account: TestAccount, count: number): Promise<QrCode[]> {
  const codes: QrCode[] = [];
  for (let i = 0; i < count; i++) {
    codes.push(await createTestCode(account, { name: `code ${i}`, url: `https://example.com/${i}` }));
  }
  return codes;
}

async function page(account: TestAccount, query: { limit?: number; cursor?: string }) {
  const { data, error } = await account.client.raw.GET('/qrcodes', { params: { query } });
  expect(error).toBeUndefined();
  return data!;
}

describe('GET /qrcodes pagination', () => {
  it('lists newest first, 20 by default, with nextCursor null on the last page', async () => {
    const account = await createTestAccount(database.db, app);
    const created = await createCodes(account, 23);
    const first = await page(account, {});
    expect(first.data).toHaveLength(20);
    expect(first.data.map((c) => c.id)).toEqual(created.map((c) => c.id).reverse().slice(0, 20));
    expect(first.nextCursor).toBe(first.data[19]!.id);
    const last = await page(account, { cursor: first.nextCursor! });
    expect(last.data.map((c) => c.id)).toEqual(created.slice(0, 3).map((c) => c.id).reverse());
    expect(last.nextCursor).toBeNull();
  });

  it('returns nextCursor null when the last page is exactly full', async () => {
    const account = await createTestAccount(database.db, app);
    await createCodes(account, 4);
    const first = await page(account, { limit: 2 });
    const second = await page(account, { limit: 2, cursor: first.nextCursor! });
    expect(second.data).toHaveLength(2);
    expect(second.nextCursor).toBeNull();
  });

  it('neither skips nor repeats codes when codes are created and deleted between pages', async () => {
    const account = await createTestAccount(database.db, app);
    const created = await createCodes(account, 9); // oldest first
    const expected = new Set(created.map((c) => c.id));

    const first = await page(account, { limit: 3 });
    // Between pages: a new code (sorts before the cursor), the cursor's own code deleted, and a code on a later page deleted.
    await createCodes(account, 1);
    const cursorCode = first.nextCursor!;
    await account.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: cursorCode } } });
    const laterCode = created[1]!.id;
    await account.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: laterCode } } });
    expected.delete(laterCode);

    const seen = first.data.map((c) => c.id);
    let cursor: string | null = first.nextCursor;
    while (cursor) {
      const next = await page(account, { limit: 3, cursor });
      seen.push(...next.data.map((c) => c.id));
      cursor = next.nextCursor;
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(expected);
  });

  it('lists an account with no codes as an empty last page', async () => {
    const account = await createTestAccount(database.db, app);
    expect(await page(account, {})).toEqual({ data: [], nextCursor: null });
  });

  it.each([
    ['limit=0', 'limit=0', '/query/limit'],
    ['limit=101', 'limit=101', '/query/limit'],
    ['limit=2.5', 'limit=2.5', '/query/limit'],
    ['limit=abc', 'limit=abc', '/query/limit'],
    ['a malformed cursor', 'cursor=not-a-cursor', '/query/cursor'],
    ['an unknown parameter', 'offset=20', '/query/offset'],
  ])('answers 400 invalid_query for %s', async (_label, query, path) => {
    const account = await createTestAccount(database.db, app);
    const res = await rawRequest(app, `/qrcodes?${query}`, { apiKey: account.apiKey });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_query');
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(path);
  });

  it('accepts limit 1 and 100', async () => {
    const account = await createTestAccount(database.db, app);
    await createCodes(account, 2);
    expect((await page(account, { limit: 1 })).data).toHaveLength(1);
    expect((await page(account, { limit: 100 })).data).toHaveLength(2);
  });
});
