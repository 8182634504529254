import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { foldScans } from '../../src/analytics/index.js';
import { scanCountsOf } from '../../src/codes/scan-counts.js';
import { executePrepared } from '../../src/db/database.js';
import { newId } from '../../src/ids.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';
import { insertBareCode } from '../support/factories.js';
import { PREVIOUS_WRITE_SCAN_BATCH, PREVIOUS_WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS } from '../support/previous-scan-batch.js';

let database: TestDatabase;
useTestDatabase((created) => (database = created));


/** A batch as the previous version sends it: one entry for scans that differ only in their time. */
function previousBatch(accountId: string, codeId: string, times: string[]): string {
  return JSON.stringify({
    scans: [[codeId, accountId, 'mobile', 'iOS', 'Mobile Safari', 'https://example.com/', 'news.example', times]],
    counts: [[codeId, times.length, 0]],
  });
}

const TIMES = ['2026-05-01T10:00:00.100Z', '2026-05-01T10:00:00.200Z', '2026-05-01T10:00:01.300Z'];

it('keeps recording the scans an instance of the previous version writes during an upgrade, once each', async () => {
  const plain = await insertBareCode(database.db);
  const withWebhook = await insertBareCode(database.db);
  // The endpoint's row is all the statement reads (no request is sent here).
  await sql`insert into webhook_endpoints (account_id, url, secret_encrypted)
    values (${withWebhook.accountId}, 'https://hooks.example/qroute', 'unused')`.execute(database.db);

  for (const [statement, code] of [[PREVIOUS_WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS, plain], [PREVIOUS_WRITE_SCAN_BATCH, withWebhook]] as const) {
    const batchId = newId('scb');
    // Written twice, as after an ambiguous failure: the batch id makes the second write change nothing.
    for (let write = 0; write < 2; write++) {
      await executePrepared(database.db, statement, [batchId, previousBatch(code.accountId, code.codeId, TIMES)]);
    }
    const { rows } = await sql<{ created_at: Date; referrer_host: string }>`
      select created_at, referrer_host from scans where qr_code_id = ${code.codeId} order by created_at`.execute(database.db);
    expect(rows.map((row) => row.created_at.toISOString())).toEqual(TIMES);
    expect(rows.every((row) => row.referrer_host === 'news.example')).toBe(true);
    expect((await scanCountsOf(database.db, code.codeId)).scans).toBe(3);
  }
  const deliveries = await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where qr_code_id = ${withWebhook.codeId}`.execute(database.db);
  expect(deliveries.rows[0]!.n).toBe(3);

  // The current version's rollup counts them.
  expect(await foldScans(database.db)).toMatchObject({ status: 'folded', scans: 6 });
});
