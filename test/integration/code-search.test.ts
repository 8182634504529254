import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { beforeAll, describe, expect, it, inject } from 'vitest';
import { countQrCodes, InvalidCursorError, searchQrCodes } from '../../src/codes/code-search.js';
import { createDatabase } from '../../src/db/database.js';
import { ensureExtension } from '../../src/db/migrations/20261123T1600-code-search.js';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;
/** The owner's codes by name, created in this order (so newest first is the reverse). */
const ids: Record<string, string> = {};

const NAMES = ['Spring poster', 'spring flyer', 'Summer poster', 'Autumn 100%_off', 'Autumn 1000 off', 'Winter', 'Gone spring', 'Paused spring'];

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
  for (const name of NAMES) ids[name] = (await owner.client.createQrCode({ name, url: 'https://example.com/' })).id;
  await owner.client.deleteQrCode(ids['Gone spring']!);
  await owner.client.updateQrCode(ids['Paused spring']!, { active: false });
  await owner.client.updateQrCode(ids['Winter']!, { active: false });
  const other = await createTestAccount(database.db, app);
  await other.client.createQrCode({ name: 'Spring poster of another account', url: 'https://example.com/' });
});

async function names(filter: { query?: string; state?: 'active' | 'paused' | 'all' }): Promise<string[]> {
  const { codes, nextCursor } = await searchQrCodes(database.db, { accountId: owner.accountId, limit: 100, ...filter });
  expect(nextCursor).toBeNull();
  return codes.map((c) => c.name);
}

describe('searchQrCodes', () => {
  it('lists the account’s live codes newest first, without deleted codes or other accounts’ codes', async () => {
    expect(await names({})).toEqual(NAMES.filter((n) => n !== 'Gone spring').reverse());
  });

  it('finds a part of the name in any case', async () => {
    expect(await names({ query: 'SPRING' })).toEqual(['Paused spring', 'spring flyer', 'Spring poster']);
    expect(await names({ query: '  poster ' })).toEqual(['Summer poster', 'Spring poster']);
    expect(await names({ query: 'ummer po' })).toEqual(['Summer poster']);
    expect(await names({ query: '   ' })).toHaveLength(NAMES.length - 1);
  });

  it('takes %, _ and \\ in the search literally', async () => {
    expect(await names({ query: '100%' })).toEqual(['Autumn 100%_off']);
    expect(await names({ query: '%_' })).toEqual(['Autumn 100%_off']);
    expect(await names({ query: '0_o' })).toEqual([]);
    expect(await names({ query: '\\' })).toEqual([]);
    expect(await names({ query: 'spring\u0000' })).toEqual([]);
  });

  it('filters active or paused codes, with or without a search', async () => {
    expect(await names({ state: 'paused' })).toEqual(['Paused spring', 'Winter']);
    expect(await names({ state: 'active', query: 'spring' })).toEqual(['spring flyer', 'Spring poster']);
    expect(await names({ state: 'all', query: 'spring' })).toEqual(['Paused spring', 'spring flyer', 'Spring poster']);
  });

  it('pages through the matches with the last id as the cursor, and says when there is no next page', async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = await searchQrCodes(database.db, { accountId: owner.accountId, query: 'R', limit: 2, cursor });
      seen.push(...result.codes.map((c) => c.name));
      if (result.nextCursor === null) break;
      expect(result.codes).toHaveLength(2);
      cursor = result.nextCursor;
    }
    expect(seen).toEqual(['Paused spring', 'Winter', 'Summer poster', 'spring flyer', 'Spring poster']);
  });

  it('continues after a cursor whose code was deleted, and refuses a cursor that is no code id', async () => {
    const after = await searchQrCodes(database.db, { accountId: owner.accountId, limit: 1, cursor: ids['Gone spring'] });
    expect(after.codes.map((c) => c.name)).toEqual(['Winter']);
    await expect(searchQrCodes(database.db, { accountId: owner.accountId, limit: 1, cursor: 'nope' })).rejects.toThrow(InvalidCursorError);
  });
});

describe('countQrCodes', () => {
  it('counts the live codes that match, and stops at the cap', async () => {
    const count = (filter: object) => countQrCodes(database.db, { accountId: owner.accountId, ...filter });
    expect(await count({})).toEqual({ count: NAMES.length - 1, capped: false });
    expect(await count({ query: 'spring' })).toEqual({ count: 3, capped: false });
    expect(await count({ state: 'paused' })).toEqual({ count: 2, capped: false });
    expect(await count({ query: 'spring', cap: 2 })).toEqual({ count: 2, capped: true });
  });
});

describe('the code-search migration on a server that cannot give it pg_trgm', () => {
  it('says the extension is not installed and what to install', async () => {
    await expect(ensureExtension(database.db, 'no_such_extension')).rejects.toThrow(
      /extension no_such_extension is not installed on the database server.*postgresql-contrib/,
    );
  });

  it('says a superuser must create it when the role may not', async () => {
    // A database the service's role does not own: it has no CREATE privilege there, as on a locked-down server.
    const name = `test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
    await admin.connect();
    try {
      await admin.query(`create database ${name}`);
      const url = new URL(inject('postgresAppUrl'));
      url.pathname = `/${name}`;
      const db = createDatabase(url.toString(), { logger: pino({ level: 'silent' }) });
      try {
        await expect(ensureExtension(db, 'pg_trgm')).rejects.toThrow(/run "CREATE EXTENSION pg_trgm;" in this database as a superuser/);
      } finally {
        await db.destroy();
      }
    } finally {
      // Not dropped: it goes with the test cluster, as every file's database does. DROP DATABASE forces an
      // immediate checkpoint of the whole shared cluster, which on a busy CI machine outlasted the test's 30 s.
      await admin.end();
    }
  });
});
