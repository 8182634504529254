import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';
import { createComingMonths } from '../../src/maintenance/scan-partitions.js';

let database: TestDatabase;
let app: TestApp;
// No rollup or pruning job: both read scan_groups' partitions, and the index test counts who reads January's.
useTestApp((started) => ({ database, app } = started), {}, { tuning: { withoutJobs: ['rollup', 'pruning'] } });

const devices = ['mobile', 'tablet', 'desktop'] as const;

/** Scans are recorded by the redirect (a later part); here they are written the way it will write them. */
async function recordScans(codeId: string, count: number, start: Date) {
  await sql`
    insert into scans (qr_code_id, created_at, device, os, browser)
    select ${codeId}, ${start}::timestamptz + (n * interval '1 millisecond'),
           (array['mobile','tablet','desktop'])[1 + n % 3], 'os-' || n, 'browser-' || n
    from generate_series(0, ${count - 1}) as n
  `.execute(database.db);
  await database.db.updateTable('qr_codes').set({ scan_count: sql`scan_count + ${count}` }).where('id', '=', codeId).execute();
}

describe('GET /qrcodes/{id}/scans', () => {
  it('returns total 0 and no scans for a new code', async () => {
    const account = await createTestAccount(database.db, app);
    const created = await createTestCode(account, { name: 'n' });
    const { data } = await account.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id: created.id } } });
    expect(data).toEqual({ total: 0, data: [] });
  });

  it('returns the lifetime total and the newest 1000 of 1005 scans, newest first', async () => {
    const account = await createTestAccount(database.db, app);
    const { id } = await createTestCode(account, { name: 'n' });
    const start = new Date('2026-11-01T00:00:00.000Z');
    await recordScans(id, 1005, start);

    const { data } = await account.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } });
    expect(data!.total).toBe(1005);
    expect(data!.data).toHaveLength(1000);
    expect(data!.data[0]).toEqual({
      createdAt: new Date(start.getTime() + 1004).toISOString(),
      device: devices[1004 % 3],
      os: 'os-1004',
      browser: 'browser-1004',
      // Recorded without an audience or routing (as scans before qroute recorded them are): none of it is known.
      country: null,
      region: null,
      city: null,
      language: null,
      unique: null,
      ruleId: null,
      variant: null,
    });
    expect(data!.data.at(-1)!.os).toBe('os-5'); // the 5 oldest are left out
    const times = data!.data.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const { data: code } = await account.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } });
    expect(code!.data.scanCount).toBe(1005);
  });

  it('reads a busy code\'s newest scans through its index, never the whole table', async () => {
    const account = await createTestAccount(database.db, app);
    const { id } = await createTestCode(account, { name: 'n' });
    // The code holds most of the table, as a popular poster does: a plan that guesses a third of its groups
    // after an unknown bound reads the whole table instead (it did, at 2M of 4M groups: 205 ms for 20 scans).
    await createComingMonths(database.db, new Date('2026-01-01T00:00:00Z'), 0);
    await sql`
      insert into scan_groups (qr_code_id, device, os, browser, first_at)
      select case when n % 5 = 0 then 'qr_other' else ${id} end, 'mobile', 'iOS', 'Mobile Safari',
             timestamptz '2026-01-01T00:00:00Z' + n * interval '1 millisecond'
      from generate_series(1, 100000) as n`.execute(database.db);
    await sql`analyze scan_groups`.execute(database.db);
    const tableReads = async () => (await sql<{ seq: number; idx: number }>`
      select coalesce(sum(seq_scan), 0)::int as seq, coalesce(sum(idx_scan), 0)::int as idx from pg_stat_user_tables
      -- scan_groups is partitioned by month: January's, which holds these rows, is what must be read by index.
      -- Only that one, named in the catalog rather than found by reading it: another month's counters may still
      -- grow from statistics that earlier sessions flush late (up to 10 s after they go idle), which once failed
      -- this test in CI with 6 reads of November.
      where relid = 'scan_groups_2026_01'::regclass`.execute(database.db)).rows[0]!;
    const before = await tableReads();
    const { data } = await account.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } });
    expect(data!.data).toHaveLength(1000);
    // Statistics reach pg_stat_user_tables when the app's session goes idle, both counters at once; a session that
    // flushed less than a second before (the request's key lookup) waits 10 s more (PGSTAT_IDLE_INTERVAL).
    await expect.poll(async () => (await tableReads()).idx, { timeout: 15_000 }).toBeGreaterThan(before.idx);
    expect((await tableReads()).seq).toBe(before.seq);
  });
});
