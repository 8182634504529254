import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkImport } from '../../src/imports/check-import.js';
import { confirmImport } from '../../src/imports/confirm-import.js';
import { createImportJob } from '../../src/imports/import-job.js';
import { getImport } from '../../src/imports/import-rows.js';
import { createPerson, dashboardHttp, startDashboardApp, type DashboardHttp, type TestPerson } from '../support/dashboard.js';
import { CAN_MOUNT, tablesOnSmallVolume, type FullDisk } from '../support/full-disk.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { createTestAccount, type TestAccount, type TestApp } from '../support/test-app.js';

// A real full disk (a tmpfs under the tables, filled), so the file runs a cluster of its own; mounting needs root.
const ROWS = 40;
let cluster: OwnCluster;
let disk: FullDisk;
let app: TestApp;
let owner: TestPerson;
let account: TestAccount;
let dashboard: DashboardHttp;
const importLog: { level: number; msg: string; err?: { code?: string } }[] = [];

beforeAll(async () => {
  cluster = await startOwnCluster();
  // The import's own bookkeeping stands for tables on a healthy volume, so a row the old code gave up on could
  // still be marked failed (as it was in the probe: 16 valid rows failed for good).
  disk = await tablesOnSmallVolume(cluster, { sizeMb: 24, keepOnMainDisk: ['imports', 'import_rows'] });
  // The test runs the import job by hand: the app's own would claim the import (SKIP LOCKED) and race it.
  app = await startDashboardApp({ db: cluster.db, connectionString: cluster.connectionString, destroy: async () => undefined }, {}, { withoutJobs: ['imports'] });
  owner = await createPerson(cluster.db);
  account = await createTestAccount(cluster.db, app);
  dashboard = await dashboardHttp(app, owner);
}, 120_000);
afterAll(async () => {
  await disk?.free();
  await app?.close();
  await cluster?.destroy();
  await disk?.remove();
});

async function queuedImport(): Promise<string> {
  const lines = ['type,name,url,externalId', ...Array.from({ length: ROWS }, (_, i) => `URL,Poster ${i},https://example.com/p/${i},row-${i}`)];
  const checked = await checkImport(cluster.db, { accountId: owner.accountId, userId: owner.userId, fileName: 'codes.csv', bytes: Buffer.from(lines.join('\r\n')) });
  if (!checked.ok) throw new Error(checked.message);
  expect(await confirmImport(cluster.db, owner.accountId, checked.importId)).toEqual({ ok: true });
  return checked.importId;
}

describe.skipIf(!CAN_MOUNT)('a full disk under the tables (53100 disk_full)', () => {
  it('answers API and dashboard writes 503 with Retry-After, and an import waits it out and creates every valid row once space returns', async () => {
    const importId = await queuedImport();
    const logger = pino({ level: 'info' }, new Writable({ write: (line, _encoding, done) => done(void importLog.push(JSON.parse(String(line)))) }));
    const job = createImportJob({ db: cluster.db, logger, siteUrl: app.config.siteUrl });

    await disk.fill();
    try {
      // runOnce works until the batch cannot go on, and never rejects.
      await job.runOnce();
      expect(importLog.map((line) => line.err?.code), JSON.stringify(importLog)).toContain('53100');
      expect((await getImport(cluster.db, owner.accountId, importId)).counts).toMatchObject({ pending: ROWS, created: 0, failed: 0 });

      const created = await fetch(`${app.apiUrl}/qrcodes`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'During the full disk', url: 'https://example.com/full' }),
      });
      const body = await created.text();
      expect(created.status, body).toBe(503);
      expect(JSON.parse(body).error.code).toBe('service_unavailable');
      expect(created.headers.get('retry-after')).toBe('5');
      expect(body).not.toMatch(/space|extend|53100/);

      const page = await dashboard.post('/codes', { name: 'During the full disk', url: 'https://example.com/full' });
      expect(page.status).toBe(503);
      expect(page.headers.get('retry-after')).toBe('5');
      expect(await page.text()).toContain('briefly unavailable');
    } finally {
      await disk.free();
    }

    await job.runOnce();
    const done = await getImport(cluster.db, owner.accountId, importId);
    expect(done.status).toBe('done');
    expect(done.counts).toMatchObject({ created: ROWS, failed: 0, pending: 0 });
  });
});
