import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { foldScanCounts, scanCountsOf } from '../../src/codes/scan-counts.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

const codeOf = (account: TestAccount) => createTestCode(account);

function scansOf(account: TestAccount, code: { id: string; slug: string }, humans: number, bots: number): ScanEvent[] {
  return Array.from({ length: humans + bots }, (_, i) => ({
    codeId: code.id, accountId: account.accountId, at: new Date(), device: 'mobile', os: 'iOS',
    browser: 'Mobile Safari', destinationUrl: 'https://example.com/', referrerHost: null, country: null, region: null, city: null, language: null, visitor: null, bot: i >= humans,
  }));
}

async function apiCounts(account: TestAccount, id: string) {
  const [{ data: code }, { data: scans }, { data: list }] = await Promise.all([
    account.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } }),
    account.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } }),
    account.client.raw.GET('/qrcodes', {}),
  ]);
  return { code: code!.data.scanCount, scans: scans!.total, list: list!.data.find((c) => c.id === id)!.scanCount };
}

describe('scan counters', () => {
  it('are exact before and after their increments are folded into the code', async () => {
    const account = await createTestAccount(database.db, app);
    const code = await codeOf(account);
    for (const [humans, bots] of [[3, 1], [2, 0], [0, 4]] as const) {
      await writeScanBatch(database.db, prepareScanBatch(scansOf(account, code, humans, bots)));
    }
    expect(await scanCountsOf(database.db, code.id)).toEqual({ scans: 5, botScans: 5 });
    expect(await apiCounts(account, code.id)).toEqual({ code: 5, scans: 5, list: 5 });

    await foldScanCounts(database.db);
    const left = await sql<{ n: number }>`select count(*)::int as n from qr_code_scan_increments where qr_code_id = ${code.id}`.execute(database.db);
    expect(left.rows[0]!.n).toBe(0);
    const row = await database.db.selectFrom('qr_codes').select(['scan_count', 'bot_scan_count']).where('id', '=', code.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ scan_count: 5, bot_scan_count: 5 });
    expect(await apiCounts(account, code.id)).toEqual({ code: 5, scans: 5, list: 5 });
  });

  it('count every increment once when folds run at once with scans being written', async () => {
    const account = await createTestAccount(database.db, app);
    const code = await codeOf(account);
    const writes = Array.from({ length: 40 }, () => writeScanBatch(database.db, prepareScanBatch(scansOf(account, code, 2, 1))));
    const folds = Array.from({ length: 6 }, () => foldScanCounts(database.db));
    await Promise.all([...writes, ...folds]);
    await Promise.all([foldScanCounts(database.db), foldScanCounts(database.db)]);
    expect(await scanCountsOf(database.db, code.id)).toEqual({ scans: 80, botScans: 40 });
  });
});

describe('deleting a code by hand', () => {
  it('is refused once it has scans, as the foreign keys did; a code without any can still be removed', async () => {
    const account = await createTestAccount(database.db, app);
    const scanned = await codeOf(account);
    const unscanned = await codeOf(account);
    await writeScanBatch(database.db, prepareScanBatch(scansOf(account, scanned, 1, 0)));
    await expect(sql`delete from qr_codes where id = ${scanned.id}`.execute(database.db)).rejects.toMatchObject({ code: '23503' });
    await sql`delete from qr_code_destination_changes where qr_code_id = ${unscanned.id}`.execute(database.db);
    await expect(sql`delete from qr_codes where id = ${unscanned.id}`.execute(database.db)).resolves.toBeDefined();
  });
});
