import { describe, expect, it } from 'vitest';
import { errorBodyProblems, methodsOf, operations, type Operation } from '../support/contract.js';
import type { TestDatabase } from '../support/database.js';
import { rawHttp, type RawResponse } from '../support/raw-http.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

let database: TestDatabase;
let app: TestApp;
useTestApp((started) => ({ database, app } = started));

/** An account with one real code, so ids that do exist are part of every walk. */
async function accountWithCode(): Promise<{ account: TestAccount; codeId: string }> {
  const account = await createTestAccount(database.db, app);
  return { account, codeId: (await createTestCode(account)).id };
}

function pathOf(operation: Operation, values: Record<string, string>, query = ''): string {
  return `/api/v1${operation.template.replace(/\{([^}]+)\}/g, (_m, name: string) => values[name] ?? 'x')}${query}`;
}

/** What every answer to a hostile request must be: declared for its operation, never 5xx, errors per the contract. */
function expectContractAnswer(operation: Operation, res: RawResponse, label: string): void {
  const context = `${operation.operationId} ${label}: ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect([...operation.statuses], context).toContain(res.status);
  if (res.status >= 400) expect(errorBodyProblems(res.json), context).toEqual([]);
}

const HOSTILE_IDS: Array<[string, string]> = [
  ['a well-formed id that names nothing', 'qr_01JD3Z8Q4V6N1X2Y3Z4A5B6C7D'],
  ['broken percent-encoding', '%E0%A4%A'],
  ['a lone percent sign', '%'],
  ['an encoded NUL', '%00'],
  ['a NUL inside an id', 'qr_%00abc'],
  ['a 6,000-character id', 'q'.repeat(6_000)],
  ['unicode', '%F0%9F%98%80%C3%BC'],
  ['encoded path traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['an encoded slash', 'qr_a%2Fb'],
  ['SQL', "qr_'%20OR%201=1--"],
];

const deep = (n: number) => `{"name":${'['.repeat(n)}${']'.repeat(n)},"url":"https://example.com/"}`;
const HOSTILE_BODIES: Array<[string, string | Buffer, Record<string, string>]> = [
  ['NUL in every string field', '{"name":"a\\u0000b","url":"https://example.com/\\u0000"}', {}],
  ['raw invalid UTF-8', Buffer.concat([Buffer.from('{"name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('","url":"https://example.com/"}')]), {}],
  ['an overlong UTF-8 encoding of "/"', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","url":"https://example.com/"}')]), {}],
  ['a lone surrogate escape', '{"name":"\\ud800","url":"https://example.com/"}', {}],
  ['an array where an object goes', '[{"name":"a","url":"https://example.com/"}]', {}],
  ['a JSON string', '"text"', {}],
  ['a JSON number', '42', {}],
  ['JSON null', 'null', {}],
  ['numbers where strings go', '{"name":1,"url":2,"active":"yes"}', {}],
  ['duplicate keys', '{"name":"a","name":"b","url":"https://example.com/","url":"ftp://x"}', {}],
  ['JSON nested 10,000 deep', deep(10_000), {}],
  ['an unknown field', '{"name":"a","url":"https://example.com/","__proto__":{"admin":true}}', {}],
  ['truncated JSON', '{"name":"a","url":', {}],
  ['an empty body with content-length 0', '', {}],
  ['text/plain', 'name=a', { 'Content-Type': 'text/plain' }],
  ['a form body', 'name=a&url=https%3A%2F%2Fexample.com', { 'Content-Type': 'application/x-www-form-urlencoded' }],
  ['no content type', '{"name":"a","url":"https://example.com/"}', { 'Content-Type': '' }],
  ['charset utf-16le', Buffer.from('{"name":"a","url":"https://example.com/"}', 'utf16le'), { 'Content-Type': 'application/json; charset=utf-16le' }],
  ['charset latin1', '{"name":"a","url":"https://example.com/"}', { 'Content-Type': 'application/json; charset=latin1' }],
  ['a body over 64 KB', `{"name":"${'a'.repeat(70_000)}","url":"https://example.com/"}`, {}],
  ['an unknown content encoding', '{}', { 'Content-Encoding': 'br2' }],
  ['gzip that is not gzip', 'garbage', { 'Content-Encoding': 'gzip' }],
];

describe('every operation of the contract, walked with hostile requests', () => {
  it.each(operations.map((op) => [op.operationId, op] as const))('%s answers only statuses it declares', async (_id, operation) => {
    // One account per operation, so its writes stay under the write limit and 429 does not hide other answers.
    const { account, codeId } = await accountWithCode();
    const auth = { Authorization: `Bearer ${account.apiKey}` };
    const real = { id: codeId, deliveryId: 'whd_01JD3Z9A2B3C4D5E6F7G8H9J0K' };
    const send = async (label: string, path: string, extra: { headers?: Record<string, string>; body?: string | Buffer } = {}) => {
      const headers: Record<string, string | number> = { ...auth, 'Content-Type': 'application/json', ...extra.headers };
      if (headers['Content-Type'] === '') delete headers['Content-Type'];
      const res = await rawHttp(app.origin, { method: operation.method, path, headers, body: extra.body ?? operation.exampleBody });
      expectContractAnswer(operation, res, label);
      return res;
    };

    for (const [label, id] of HOSTILE_IDS) {
      if (operation.pathParams.length === 0) break;
      const res = await send(`id: ${label}`, pathOf(operation, { id, deliveryId: id }));
      expect(res.status, `${operation.operationId} id: ${label}`).toBe(404);
    }
    const unknown = await send('an unknown query parameter', pathOf(operation, real, '?foo=1'));
    expect(unknown.json?.error?.code).toBe('invalid_query');
    await send('an unknown query parameter twice', pathOf(operation, real, '?foo=1&foo=2'));
    await send('a query without a name', pathOf(operation, real, '?=1&&='));
    await send('broken percent-encoding in the query', pathOf(operation, real, '?cursor=%E0%A4%A'));
    for (const { name } of operation.query) {
      const repeated = await send(`${name} twice`, pathOf(operation, real, `?${name}=1&${name}=2`));
      expect(repeated.json?.error?.code).toBe('invalid_query');
    }
    for (const [label, body, headers] of HOSTILE_BODIES) {
      await send(`body: ${label}`, pathOf(operation, real), { body, headers });
    }
    await send('an overlong header', pathOf(operation, real), { headers: { 'X-Filler': 'a'.repeat(8_000) } });
    await send('a 300-character Idempotency-Key', pathOf(operation, real), { headers: { 'Idempotency-Key': 'k'.repeat(300) } });
    await send('an Idempotency-Key with spaces', pathOf(operation, real), { headers: { 'Idempotency-Key': 'a b' } });
  }, 60_000);

  it.each(operations.filter((op) => op.method === 'GET').map((op) => [op.operationId, op] as const))(
    'HEAD on %s answers like GET, without a body',
    async (_id, operation) => {
      const { account, codeId } = await accountWithCode();
      const request = { path: pathOf(operation, { id: codeId, deliveryId: 'whd_01JD3Z9A2B3C4D5E6F7G8H9J0K' }), headers: { Authorization: `Bearer ${account.apiKey}` } };
      const get = await rawHttp(app.origin, { method: 'GET', ...request });
      const head = await rawHttp(app.origin, { method: 'HEAD', ...request });
      // Values that differ between any two requests: the date, the request id, and a rate limit's remainder
      // (which HEAD spends like GET); the header itself must still be there.
      const comparable = (headers: RawResponse['headers']) => {
        const { date: _date, 'x-request-id': _id, ratelimit, ...rest } = headers;
        return { ...rest, ratelimit: ratelimit === undefined ? undefined : 'present' };
      };
      expect(head.status).toBe(get.status);
      expect(comparable(head.headers)).toEqual(comparable(get.headers));
      expect(head.text).toBe('');
    },
  );

  it.each([...new Set(operations.map((op) => op.template))])('answers a method %s lacks with 405 and Allow from the contract', async (template) => {
    const account = await createTestAccount(database.db, app);
    const declared = methodsOf(template);
    const allow = [...declared, ...(declared.includes('GET') ? ['HEAD'] : [])];
    const path = `/api/v1${template.replace(/\{[^}]+\}/g, 'qr_01JD3Z8Q4V6N1X2Y3Z4A5B6C7D')}`;
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND'].filter((m) => !allow.includes(m))) {
      const res = await rawHttp(app.origin, { method, path, headers: { Authorization: `Bearer ${account.apiKey}` } });
      expect(res.status, `${method} ${template}`).toBe(405);
      expect(res.json.error.code).toBe('method_not_allowed');
      expect(res.headers.allow?.split(', ').sort()).toEqual([...allow].sort());
      expect(errorBodyProblems(res.json)).toEqual([]);
    }
  });
});

describe('integer query parameters', () => {
  const integerParams = operations.flatMap((op) => op.query.filter((q) => q.type === 'integer').map((q) => [`${op.operationId} ${q.name}`, op, q.name, q.minimum ?? 0] as const));

  it('exist in the contract (the walk below is not empty)', () => {
    expect(integerParams.map(([label]) => label)).toEqual(expect.arrayContaining(['listQrCodes limit', 'getQrCodeImage size', 'getQrCodeImage margin']));
  });

  const REFUSED = ['Infinity', '-Infinity', 'NaN', '0x10', '1e1', '%205', '5%20', '%2B5', '-5', '5.0', '.5', '%D9%A5', '%EF%BC%95', '', '9'.repeat(30), '5%00'];
  it.each(integerParams)('%s refuses every form but plain decimal digits with 400 invalid_query', async (_label, operation, name, minimum) => {
    const { account, codeId } = await accountWithCode();
    const headers = { Authorization: `Bearer ${account.apiKey}` };
    for (const value of REFUSED) {
      const res = await rawHttp(app.origin, { method: operation.method, path: pathOf(operation, { id: codeId }, `?${name}=${value}`), headers });
      expect(res.status, `${name}=${value}: ${res.text.slice(0, 200)}`).toBe(400);
      expect(res.json.error.code).toBe('invalid_query');
      expect(res.json.error.details).toEqual([expect.objectContaining({ path: `/query/${name}` })]);
    }
    // Every spelling of the path Express routes to the operation is guarded too.
    for (const spelling of [(p: string) => p.toUpperCase().replace('/API/V1', '/api/v1').replace(codeId.toUpperCase(), codeId), (p: string) => `${p}/`]) {
      const path = spelling(pathOf(operation, { id: codeId }));
      const res = await rawHttp(app.origin, { method: operation.method, path: `${path}?${name}=Infinity`, headers });
      expect(res.status, `${path}?${name}=Infinity: ${res.text.slice(0, 200)}`).toBe(400);
    }
    const twice = await rawHttp(app.origin, { method: operation.method, path: pathOf(operation, { id: codeId }, `?${name}=${minimum}&${name}=${minimum}`), headers });
    expect(twice.json.error).toMatchObject({ code: 'invalid_query', details: [{ path: `/query/${name}`, message: 'must be given at most once' }] });
    const plain = await rawHttp(app.origin, { method: operation.method, path: pathOf(operation, { id: codeId }, `?${name}=${minimum}`), headers });
    expect(plain.status, plain.text.slice(0, 200)).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('are stored exactly as sent when they are UTF-8, and refused with 400 invalid_body when they are not', async () => {
    const { account } = await accountWithCode();
    const headers = { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' };
    const valid = await rawHttp(app.origin, { method: 'POST', path: '/api/v1/qrcodes', headers, body: Buffer.from('{"name":"Café 😀","url":"https://example.com/"}') });
    expect(valid.status).toBe(201);
    expect(valid.json.data.name).toBe('Café 😀');

    const latin1 = Buffer.from('{"name":"Caf\xe9","url":"https://example.com/"}', 'latin1');
    const invalid = await rawHttp(app.origin, { method: 'POST', path: '/api/v1/qrcodes', headers, body: latin1 });
    expect(invalid.status).toBe(400);
    expect(invalid.json.error).toMatchObject({ code: 'invalid_body', details: [{ path: '/body' }] });
  });

  it.each(['utf-16le', 'latin1', 'iso-8859-1', 'utf-32'])('declaring charset %s are refused with 400 invalid_body', async (charset) => {
    const { account } = await accountWithCode();
    const res = await rawHttp(app.origin, {
      method: 'POST',
      path: '/api/v1/qrcodes',
      headers: { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': `application/json; charset=${charset}` },
      body: '{"name":"a","url":"https://example.com/"}',
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toMatchObject({ code: 'invalid_body', details: [{ path: '/body', message: expect.stringMatching(/UTF-8/) }] });
  });

  it('on an operation that takes none (GET, DELETE, redeliver) are ignored, whatever they hold', async () => {
    const { account, codeId } = await accountWithCode();
    const headers = { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' };
    const get = await rawHttp(app.origin, { method: 'GET', path: `/api/v1/qrcodes/${codeId}`, headers, body: 'not json at all' });
    expect(get.status).toBe(200);
    const del = await rawHttp(app.origin, { method: 'DELETE', path: `/api/v1/qrcodes/${codeId}`, headers, body: `{"x":"${'a'.repeat(100_000)}"}` });
    expect(del.status).toBe(204);
  });
});
