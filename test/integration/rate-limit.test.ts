import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let appA: TestApp;
let appB: TestApp;

// Two instances on one database, as behind a load balancer.
useTestApp(async (started) => {
  ({ database, app: appA } = started);
  appB = await started.startAnother();
});

const createBody = JSON.stringify({ name: 'burst', url: 'https://example.com/burst' });

/** Moves the account's recorded writes into the past, as if `seconds` had passed (the window uses the DB clock). */
/**
 * Moves every recorded write of the account to `seconds` ago (the database clock), as if that much time had passed
 * since all of them: the 60 writes themselves take a while on a loaded machine, so shifting each by the same
 * amount would leave the oldest ones already outside the window.
 */
async function writesMadeAgo(account: TestAccount, seconds: number) {
  await database.db
    .updateTable('write_rate_events')
    .set({ at: sql<Date>`now() - make_interval(secs => ${seconds})` })
    .where('account_id', '=', account.accountId)
    .execute();
}

describe('write rate limit', () => {
  it('accepts exactly 60 of 100 concurrent writes spread over two instances, and refuses the rest with 429', async () => {
    const account = await createTestAccount(database.db, appA, { codeLimit: 500 });
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        rawRequest(i % 2 === 0 ? appA : appB, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: createBody }),
      ),
    );
    const accepted = results.filter((r) => r.status === 201);
    const limited = results.filter((r) => r.status === 429);
    expect(accepted).toHaveLength(60);
    expect(limited).toHaveLength(40);
    for (const res of limited) {
      expect(res.body.error.code).toBe('rate_limited');
      const retryAfter = Number(res.headers.get('retry-after'));
      expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60).toBe(true);
      expect(res.headers.get('ratelimit')).toMatch(/^"writes";r=0;t=\d+$/);
    }
    const { data } = await account.client.raw.GET('/qrcodes', { params: { query: { limit: 100 } } });
    expect(data!.data).toHaveLength(60);
  });

  it('counts POST, PATCH and DELETE, including rejected ones, but not reads', async () => {
    const account = await createTestAccount(database.db, appA);
    const created = await rawRequest(appA, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: createBody });
    expect(created.headers.get('ratelimit')).toBe('"writes";r=59;t=60');
    expect(created.headers.get('ratelimit-policy')).toBe('"writes";q=60;w=60');
    const id = created.body.data.id;
    await rawRequest(appB, `/qrcodes/${id}`, { method: 'PATCH', apiKey: account.apiKey, body: '{"active":false}' });
    await rawRequest(appA, `/qrcodes/${id}`, { method: 'PATCH', apiKey: account.apiKey, body: '{}' }); // 400, still a write
    await rawRequest(appB, '/qrcodes/qr_00000000000000000000000000', { method: 'DELETE', apiKey: account.apiKey }); // 404
    for (let i = 0; i < 5; i++) {
      const read = await rawRequest(appA, '/qrcodes', { apiKey: account.apiKey });
      expect(read.status).toBe(200);
      expect(read.headers.get('ratelimit')).toBeNull();
    }
    const last = await rawRequest(appA, `/qrcodes/${id}`, { method: 'DELETE', apiKey: account.apiKey });
    expect(last.status).toBe(204);
    expect(last.headers.get('ratelimit')).toMatch(/^"writes";r=55;t=\d+$/);
  });

  it('does not count refused writes, and frees slots as the 60-second window slides', async () => {
    const account = await createTestAccount(database.db, appA);
    for (let i = 0; i < 60; i++) {
      const res = await rawRequest(appA, '/qrcodes/qr_00000000000000000000000000', { method: 'DELETE', apiKey: account.apiKey });
      expect(res.status).toBe(404);
    }
    for (let i = 0; i < 5; i++) {
      expect((await rawRequest(appB, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: createBody })).status).toBe(429);
    }
    // 59 seconds later the 60 writes are still in the window; 61 seconds later they have all left it.
    await writesMadeAgo(account, 59);
    expect((await rawRequest(appA, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: createBody })).status).toBe(429);
    await writesMadeAgo(account, 61);
    const statuses: number[] = [];
    for (let i = 0; i < 61; i++) {
      statuses.push((await rawRequest(appB, '/qrcodes/qr_00000000000000000000000000', { method: 'DELETE', apiKey: account.apiKey })).status);
    }
    // The refused writes did not count: the whole quota of 60 is available again.
    expect(statuses.filter((s) => s === 404)).toHaveLength(60);
    expect(statuses.at(-1)).toBe(429);
  });

  it('keeps accounts separate', async () => {
    const busy = await createTestAccount(database.db, appA);
    const quiet = await createTestAccount(database.db, appA);
    await Promise.all(
      Array.from({ length: 61 }, () => rawRequest(appA, '/qrcodes/x', { method: 'DELETE', apiKey: busy.apiKey })),
    );
    expect((await rawRequest(appA, '/qrcodes/x', { method: 'DELETE', apiKey: busy.apiKey })).status).toBe(429);
    expect((await rawRequest(appB, '/qrcodes/x', { method: 'DELETE', apiKey: quiet.apiKey })).status).toBe(404);
  });

  it('is checked after authentication and before validation', async () => {
    const account = await createTestAccount(database.db, appA);
    await Promise.all(Array.from({ length: 60 }, () => rawRequest(appA, '/qrcodes/x', { method: 'DELETE', apiKey: account.apiKey })));
    expect((await rawRequest(appA, '/qrcodes', { method: 'POST', body: '{bad' })).status).toBe(401);
    const invalid = await rawRequest(appA, '/qrcodes', { method: 'POST', apiKey: account.apiKey, body: '{bad' });
    expect(invalid.status).toBe(429);
    expect(invalid.body.error.code).toBe('rate_limited');
  });
});
