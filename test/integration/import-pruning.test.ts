import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { pruneExpired } from '../../src/maintenance/prune.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

const RETENTION = { webhookDeliveryDays: 30, scanDays: undefined };

describe('pruning imports', () => {
  let database: TestDatabase;
  let accountId: string;

  useTestDatabase((created) => (database = created));
  beforeAll(async () => {
    accountId = (await createAccount(database.db, { name: 'Acme', plan: 'business' })).id;
  });

  async function anImport(id: string, status: 'checked' | 'done' | 'queued', hoursAgo: number, rows = 3): Promise<void> {
    await sql`insert into imports (id, account_id, file_name, status, row_count, created_at)
              values (${id}, ${accountId}, 'codes.csv', ${status}, ${rows}, now() - make_interval(hours => ${hoursAgo}))`.execute(database.db);
    for (let line = 2; line < rows + 2; line++) {
      await sql`insert into import_rows (import_id, line, status, input) values (${id}, ${line}, 'pending', '{}')`.execute(database.db);
    }
  }

  it('deletes dry runs nobody confirmed within a day, with their rows, and keeps confirmed and recent ones', async () => {
    // 25 stale dry runs: more than one statement's batch of 10.
    for (let i = 0; i < 25; i++) await anImport(`imp_stale${String(i).padStart(2, '0')}`, 'checked', 25);
    await anImport('imp_fresh', 'checked', 23);
    await anImport('imp_done', 'done', 24 * 30);
    await anImport('imp_queued', 'queued', 48);

    const counts = await pruneExpired(database.db, RETENTION);
    expect(counts).toMatchObject({ unconfirmedImports: 25 });
    const left = await database.db.selectFrom('imports').select('id').orderBy('id').execute();
    expect(left.map((row) => row.id)).toEqual(['imp_done', 'imp_fresh', 'imp_queued']);
    const rows = await database.db.selectFrom('import_rows').select(({ fn }) => fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(9);
  });
});
