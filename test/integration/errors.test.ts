import { describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import pino from 'pino';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, startTestApp, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

describe('error responses', () => {
  it('carry the request id in the body and the X-Request-Id header', async () => {
    const res = await rawRequest(app, '/qrcodes');
    expect(res.body.error.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers.get('x-request-id')).toBe(res.body.error.requestId);
  });

  it('reuse a sane X-Request-Id sent by the client', async () => {
    const res = await rawRequest(app, '/qrcodes', { headers: { 'X-Request-Id': 'trace-abc-123' } });
    expect(res.body.error.requestId).toBe('trace-abc-123');
  });

  it('answer unknown paths with 404 not_found and unknown methods with 405 method_not_allowed', async () => {
    const account = await createTestAccount(database.db, app);
    const unknown = await rawRequest(app, '/nothing-here', { apiKey: account.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');
    const put = await rawRequest(app, '/qrcodes', { method: 'PUT', apiKey: account.apiKey, body: '{}' });
    expect(put.status).toBe(405);
    expect(put.body.error.code).toBe('method_not_allowed');
  });

  it('answer 503 service_unavailable with Retry-After, without internals, when the database is unreachable', async () => {
    // A real failure: an app whose database pool points at a closed port.
    const broken = createDatabase('postgres://nobody:nothing@127.0.0.1:1/none', { logger: pino({ level: 'silent' }) });
    const brokenApp = await startTestApp({ db: broken, connectionString: 'postgres://nobody:nothing@127.0.0.1:1/none' });
    try {
      const account = await createTestAccount(database.db, app);
      const res = await rawRequest(brokenApp, '/qrcodes', { apiKey: account.apiKey });
      expect(res.status).toBe(503);
      expect(res.body.error.code).toBe('service_unavailable');
      expect(res.headers.get('retry-after')).toBe('5');
      expect(JSON.stringify(res.body)).not.toMatch(/ECONNREFUSED|at |127\.0\.0\.1|stack/);
      const ready = await fetch(`${brokenApp.origin}/readyz`);
      expect(ready.status).toBe(503);
    } finally {
      await brokenApp.close();
      await broken.destroy();
    }
  });

  it('report readiness and liveness', async () => {
    expect((await fetch(`${app.origin}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${app.origin}/readyz`)).json()).toEqual({ status: 'ok' });
  });
});

describe('hostile or odd requests', () => {
  it.each([
    ['a malformed percent-encoding in the path', 'GET', '/qrcodes/%E0%A4%A', undefined, {}],
    ['a malformed percent-encoding in the query', 'GET', '/qrcodes?cursor=%E0%A4%A', undefined, {}],
    ['a repeated query parameter', 'GET', '/qrcodes?limit=1&limit=2', undefined, {}],
    ['an exponent as limit', 'GET', '/qrcodes?limit=1e2', undefined, {}],
    ['a latin1 charset', 'POST', '/qrcodes', '{"name":"x","url":"https://example.com"}', { 'Content-Type': 'application/json; charset=latin1' }],
    ['a gzip body that is not gzip', 'POST', '/qrcodes', 'garbage', { 'Content-Encoding': 'gzip' }],
    ['an unknown content encoding', 'POST', '/qrcodes', '{}', { 'Content-Encoding': 'br2' }],
    ['deeply nested JSON', 'POST', '/qrcodes', `{"name":${'['.repeat(5000)}${']'.repeat(5000)},"url":"https://example.com"}`, {}],
    ['a NUL character in the name', 'POST', '/qrcodes', '{"name":"a\\u0000b","url":"https://example.com"}', {}],
    ['a lone surrogate in the url', 'POST', '/qrcodes', '{"name":"a","url":"https://example.com/\\ud800"}', {}],
    ['a JSON null body', 'POST', '/qrcodes', 'null', {}],
    ['a path id with a NUL', 'GET', '/qrcodes/qr_%00', undefined, {}],
  ])('never answers 500 for %s', async (_label, method, path, body, headers) => {
    const account = await createTestAccount(database.db, app);
    const res = await rawRequest(app, path, { method, apiKey: account.apiKey, body, headers });
    expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
    expect(res.body?.error?.code ?? 'ok').not.toBe('internal_error');
  });
});
