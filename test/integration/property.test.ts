import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { errorBodyProblems, operations, type Operation } from '../support/contract.js';
import type { TestDatabase } from '../support/database.js';
import { rawHttp } from '../support/raw-http.js';
import { createTestAccount, type TestApp, useTestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

/**
 * Property tests over what a client controls: any query string on any operation, any JSON body on the operations
 * that take one. Whatever is sent, the answer is never 5xx, its status is one the contract declares for the
 * operation, and an error body matches the contract's Error schema with a code from its list.
 */

let database: TestDatabase;
let app: TestApp;
/** Several accounts taken in turn, so the write limit (60 a minute per account) does not turn every write into 429. */
let callers: Array<{ apiKey: string; codeId: string }>;
let turn = 0;

useTestApp((started) => ({ database, app } = started), { webhookWorker: false });
beforeAll(async () => {
  callers = [];
  for (let i = 0; i < 12; i++) {
    const account = await createTestAccount(database.db, app);
    callers.push({ apiKey: account.apiKey, codeId: (await createTestCode(account)).id });
  }
}, 60_000);

const RUNS = 600;

async function expectContractAnswer(operation: Operation, request: { query?: string; body?: string }): Promise<void> {
  const caller = callers[turn++ % callers.length]!;
  const path = `/api/v1${operation.template.replace(/\{[^}]+\}/g, caller.codeId)}${request.query ?? ''}`;
  const res = await rawHttp(app.origin, {
    method: operation.method,
    path,
    headers: { Authorization: `Bearer ${caller.apiKey}`, ...(request.body !== undefined && { 'Content-Type': 'application/json' }) },
    body: request.body,
  });
  const context = `${operation.method} ${path} ${request.body?.slice(0, 200) ?? ''} -> ${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBeLessThan(500);
  expect([...operation.statuses], context).toContain(res.status);
  if (res.status >= 400) expect(errorBodyProblems(res.json), context).toEqual([]);
}

/** Text a client might put anywhere: unicode, controls and NUL, numbers in every spelling, percent signs. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  {
    weight: 3,
    arbitrary: fc.constantFrom('Infinity', '-Infinity', 'NaN', '0x10', '1e1', '1e400', '9'.repeat(30), ' 5', '5 ', '+5', '5.0', '-1', '0', '100', '101', '٥', '', '%', '%00', '\u0000', 'null', '[]'),
  },
  fc.integer().map(String),
  fc.double().map(String),
);

describe('any query string', () => {
  const allNames = [...new Set(operations.flatMap((op) => op.query.map((q) => q.name)))];
  // Mostly the operation's own parameters, so values reach its validation rather than stopping at "unknown".
  const queryString = (operation: Operation) => {
    const pair = fc.tuple(
      operation.query.length > 0
        ? fc.oneof({ arbitrary: fc.constantFrom(...operation.query.map((q) => q.name)), weight: 6 }, fc.constantFrom(...allNames), fc.string({ maxLength: 10 }))
        : fc.oneof(fc.constantFrom(...allNames), fc.string({ maxLength: 10 })),
      hostileText,
      fc.boolean(),
    );
    // One parameter most of the time, so a bad value is not hidden behind another parameter's 400.
    return fc.oneof({ arbitrary: pair.map((one) => [one]), weight: 3 }, fc.array(pair, { maxLength: 3 })).map((pairs) =>
      pairs.length === 0
        ? ''
        : // Mostly encoded as a browser would; sometimes raw, so broken escapes and bare `%` reach the server too.
          '?' +
          pairs
            .map(([key, value, raw]) => (raw ? `${key}=${value}`.replace(/[^\x21-\x7e]|#/gu, (c) => encodeURIComponent(c)) : `${encodeURIComponent(key)}=${encodeURIComponent(value)}`))
            .join('&'),
    );
  };

  it('gets a declared answer on every operation', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...operations).chain((op) => fc.tuple(fc.constant(op), queryString(op))), async ([operation, query]) => {
        await expectContractAnswer(operation, { query, body: operation.exampleBody });
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});

describe('any JSON body', () => {
  const withBody = operations.filter((op) => op.hasRequestBody);
  // Objects with the contract's field names most of the time, so validation goes deep, not just "unknown field".
  const field = fc.oneof(hostileText, fc.jsonValue({ maxDepth: 3 }), fc.boolean(), fc.constant(null), fc.webUrl());
  const body = fc.oneof(
    fc.record({ name: field, url: field, active: field }, { requiredKeys: [] }),
    fc.dictionary(fc.string({ maxLength: 8 }), field, { maxKeys: 4 }),
    fc.jsonValue({ maxDepth: 4 }),
  );

  it('gets a declared answer on every operation that takes one', async () => {
    expect(withBody.length).toBeGreaterThan(0);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...withBody), body, async (operation, value) => {
        await expectContractAnswer(operation, { body: JSON.stringify(value) });
      }),
      { numRuns: RUNS },
    );
  }, 60_000);
});
