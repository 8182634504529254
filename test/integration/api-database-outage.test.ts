import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/database.js';
import { errorBodyProblems, operations, type Operation } from '../support/contract.js';
import { startOwnCluster, type OwnCluster } from '../support/own-cluster.js';
import { rawHttp } from '../support/raw-http.js';
import { createTestAccount, startTestApp, type TestAccount, type TestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

// These tests stop and freeze PostgreSQL, so the file runs a cluster of its own.
let cluster: OwnCluster;
let app: TestApp;
let account: TestAccount;
let codeId: string;

beforeAll(async () => {
  cluster = await startOwnCluster();
  // Short client-side timeouts so a frozen server is noticed in a second, not after the production defaults.
  const db = cluster.pool({ ...DEFAULT_DATABASE_TIMEOUTS, connectMs: 1_000, queryMs: 1_000 });
  // startTestApp validates every response against the contract: a 503 the contract does not declare would be a 500.
  app = await startTestApp({ db, connectionString: cluster.connectionString });
  account = await createTestAccount(cluster.db, app);
  codeId = (await createTestCode(account)).id;
});
afterEach(async () => {
  // Whatever a test did to the cluster, the next one starts with it running (a running cluster is reused as is).
  await cluster.thaw();
  await cluster.start();
});
afterAll(async () => {
  await cluster?.thaw();
  await app?.close();
  await cluster?.destroy();
});

function request(operation: Operation) {
  const path = `/api/v1${operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'id' ? codeId : 'x'))}`;
  const body = operation.hasRequestBody ? (operation.exampleBody ?? '{}') : undefined;
  return rawHttp(app.origin, {
    method: operation.method,
    path,
    headers: { Authorization: `Bearer ${account.apiKey}`, ...(body !== undefined && { 'Content-Type': 'application/json' }) },
    body,
  });
}

async function expectUnavailable(operation: Operation): Promise<void> {
  const res = await request(operation);
  const context = `${operation.method} ${operation.template}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBe(503);
  expect([...operation.statuses], context).toContain(503);
  expect(res.json?.error?.code, context).toBe('service_unavailable');
  expect(res.headers['retry-after'], context).toBe('5');
  expect(errorBodyProblems(res.json), context).toEqual([]);
  // An outage says nothing about where the database is or how it failed.
  expect(res.text, context).not.toMatch(/ECONN|127\.0\.0\.1|Connection terminated|stack/);
}

describe('the API while PostgreSQL is unreachable', () => {
  it('answers every operation 503 service_unavailable with Retry-After while stopped, and 200 once it is back without a restart', async () => {
    await cluster.stop();
    for (const operation of operations) await expectUnavailable(operation);

    await cluster.start();
    // The same app and pool: the pool reconnects on the next request.
    await expect
      .poll(async () => (await request(operations.find((op) => op.operationId === 'getQrCode')!)).status, { timeout: 15_000 })
      .toBe(200);
    const list = await rawHttp(app.origin, { method: 'GET', path: '/api/v1/qrcodes', headers: { Authorization: `Bearer ${account.apiKey}` } });
    expect(list.status).toBe(200);
    expect(list.json.data.map((code: { id: string }) => code.id)).toContain(codeId);
  });

  it('answers 503 within the query timeout when the server takes connections but never answers', async () => {
    await cluster.freeze();
    try {
      const started = Date.now();
      await expectUnavailable(operations.find((op) => op.operationId === 'listQrCodes')!);
      expect(Date.now() - started).toBeLessThan(10_000);
    } finally {
      await cluster.thaw();
    }
    await expect
      .poll(async () => (await request(operations.find((op) => op.operationId === 'listQrCodes')!)).status, { timeout: 15_000 })
      .toBe(200);
  });
});
