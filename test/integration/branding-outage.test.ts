import { afterAll, beforeAll, expect, it } from 'vitest';
import { setBrandColor, setBrandLogo } from '../../src/accounts/branding.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { png, storeSampleFile } from '../support/sample-files.js';
import { IPHONE_SAFARI } from '../support/scan.js';
import { createTestAccount, startTestApp, type TestApp } from '../support/test-app.js';
import { createTestTypedCode } from '../support/factories.js';

// This test stops PostgreSQL, so the file runs a cluster of its own.
let cluster: OwnCluster;
let app: TestApp;

beforeAll(async () => {
  cluster = await startOwnCluster();
  app = await startTestApp({ db: cluster.db, connectionString: cluster.connectionString });
}, 60_000);
afterAll(async () => {
  await app?.close();
  await cluster?.destroy();
});

it('serves a landing page in the account colour and logo while the database is down (branding is cached with the code)', async () => {
  const owner = await createTestAccount(cluster.db, app);
  await setBrandColor(cluster.db, owner.accountId, '#0a7c3e');
  const logo = await storeSampleFile(cluster.db, owner.accountId, 'logo', 'logo.png', png(40, 12));
  await setBrandLogo(cluster.db, owner.accountId, logo.id);
  const code = await createTestTypedCode(cluster.db, owner, { name: 'Menu', type: 'TEXT', content: { text: 'Soup of the day' }, siteUrl: app.config.siteUrl });
  const open = async () => {
    const res = await fetch(`${app.origin}/r/${code.slug}`, { headers: { 'User-Agent': IPHONE_SAFARI }, signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.text() };
  };
  const before = await open();
  expect(before.status).toBe(200);
  expect(before.body).toContain('--a:#0a7c3e');

  await cluster.stop();
  const during = await open();
  expect(during.status).toBe(200);
  expect(during.body).toContain('Soup of the day');
  expect(during.body).toContain('--a:#0a7c3e;--at:#ffffff');
  expect(during.body).toContain(`src="/files/${logo.id}" alt="Test account"`);
  await cluster.start();
}, 60_000);
