import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, inject } from 'vitest';
import { createDatabase } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema/index.js';

const TEMPLATE_DATABASE = 'qroute_template';

export interface TestDatabase {
  db: Database;
  connectionString: string;
  destroy(): Promise<void>;
}

/** A fresh, migrated database of its own (a copy of the run's template), for one test file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const appUrl = inject('postgresAppUrl');
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: inject('postgresAdminUrl') });
  await admin.connect();
  try {
    await admin.query(`create database ${name} template ${TEMPLATE_DATABASE} owner ${new URL(appUrl).username}`);
  } finally {
    await admin.end();
  }
  const url = new URL(appUrl);
  url.pathname = `/${name}`;
  const connectionString = url.toString();
  const db = createDatabase(connectionString, { logger: pino({ level: 'silent' }) });
  return { db, connectionString, destroy: () => db.destroy() };
}

/**
 * The setup of a test file that needs only a database (service-level tests): its own database, made before the
 * file's tests and dropped after them. `ready` receives it (assign it to the file's variable).
 */
export function useTestDatabase(ready: (database: TestDatabase) => void): void {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    ready(database);
  });
  afterAll(async () => {
    await database?.destroy();
  });
}

/**
 * Whether a backend of this database waits for a lock: backend `pid`, or one running a statement LIKE `queryLike`.
 * pg_stat_activity shows the whole test cluster, so other files' sessions are left out.
 */
export async function waitsForLock(db: Database, match: { pid?: number; queryLike?: string }): Promise<boolean> {
  const { rows } = await sql<{ waiting: number }>`
    select count(*)::int as waiting from pg_stat_activity
    where datname = current_database() and wait_event_type = 'Lock'
      and (pid = ${match.pid ?? -1} or (${match.queryLike ?? null}::text is not null and query like ${match.queryLike ?? null}::text))`.execute(db);
  return rows[0]!.waiting > 0;
}
