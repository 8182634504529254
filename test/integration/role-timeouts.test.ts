import pino from 'pino';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/database.js';
import { applyRoleTimeouts } from '../../src/db/role-timeouts.js';
import type { Database } from '../../src/db/schema/index.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

let database: TestDatabase;
useTestDatabase((ready) => (database = ready));

/** What a new session of the role gets in this database, as a pooler's new server connection would. */
async function newSessionSettings(): Promise<Record<string, string>> {
  // Transaction pooling: no startup options, so only the role's settings apply.
  const fresh = createDatabase(database.connectionString, { logger: pino({ level: 'silent' }), pooling: 'transaction', maxConnections: 1 });
  try {
    const { rows } = await sql<{ name: string; setting: string }>`
      select name, setting from pg_settings where name in ('statement_timeout', 'idle_in_transaction_session_timeout')`.execute(fresh);
    return Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  } finally {
    await fresh.destroy();
  }
}

describe('the timeouts as role settings (for connections through a transaction-mode pooler)', () => {
  it('are set once however many instances start at the same moment, and changed when the configuration changes', async () => {
    await sql`do $$ begin execute format('alter role %I in database %I reset all', current_user, current_database()); end $$`.execute(database.db);
    const pools: Database[] = Array.from({ length: 4 }, () => createDatabase(database.connectionString, { logger: pino({ level: 'silent' }), maxConnections: 1 }));
    try {
      await Promise.all(pools.map((pool) => applyRoleTimeouts(pool, DEFAULT_DATABASE_TIMEOUTS)));
      expect(await newSessionSettings()).toEqual({ statement_timeout: '30000', idle_in_transaction_session_timeout: '60000' });
      await applyRoleTimeouts(pools[0]!, { ...DEFAULT_DATABASE_TIMEOUTS, statementMs: 12_000 });
      expect(await newSessionSettings()).toEqual({ statement_timeout: '12000', idle_in_transaction_session_timeout: '60000' });
    } finally {
      await Promise.all(pools.map((pool) => pool.destroy()));
    }
  });
});
