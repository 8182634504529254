import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { newestScanRows } from '../../src/analytics/scan-pages.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

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
    const { data: created } = await account.client.raw.POST('/qrcodes', { body: { name: 'n', url: 'https://example.com/' } });
    const { data } = await account.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id: created!.data.id } } });
    expect(data).toEqual({ total: 0, data: [] });
  });

  it('returns the lifetime total and the newest 1000 of 1005 scans, newest first', async () => {
    const account = await createTestAccount(database.db, app);
    const { data: created } = await account.client.raw.POST('/qrcodes', { body: { name: 'n', url: 'https://example.com/' } });
    const id = created!.data.id;
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
    });
    expect(data!.data.at(-1)!.os).toBe('os-5'); // the 5 oldest are left out
    const times = data!.data.map((s) => Date.parse(s.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const { data: code } = await account.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } });
    expect(code!.data.scanCount).toBe(1005);
  });

  it('reads the newest scans through the index: a few thousand of a code\'s 20,000 groups, not all of them', async () => {
    const account = await createTestAccount(database.db, app);
    const { data: created } = await account.client.raw.POST('/qrcodes', { body: { name: 'n', url: 'https://example.com/' } });
    await recordScans(created!.data.id, 20_000, new Date('2026-01-01T00:00:00Z'));
    await sql`analyze scan_groups`.execute(database.db);
    const query = newestScanRows(created!.data.id, 1000).compile(database.db);
    const { rows } = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>({
      ...query,
      sql: `explain (analyze, format json) ${query.sql}`,
    });
    const plan = rows[0]!['QUERY PLAN'][0].Plan;
    const read = groupsRead(plan);
    // The 1000 newest groups (one scan each here) for the boundary, then the groups from its second on.
    expect(read).toBeGreaterThanOrEqual(1000);
    expect(read).toBeLessThan(4000);
    expect(JSON.stringify(plan)).toContain('scan_groups_code_newest');
  });
});

interface PlanNode {
  'Relation Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  Plans?: PlanNode[];
}

/** Rows the plan read from scan_groups, over all of its nodes. */
function groupsRead(node: PlanNode): number {
  const own = node['Relation Name'] === 'scan_groups' ? node['Actual Rows'] * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + groupsRead(child), 0);
}
