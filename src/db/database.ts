import { Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema/index.js';

const INT8_OID = 20;

/**
 * A Kysely instance over its own pg pool. Type parsers are set on this pool only (no process-wide pg state):
 * bigint counters come back as numbers, which is exact up to 2^53 scans.
 */
export function createDatabase(
  connectionString: string,
  options: {
    logger: Logger;
    maxConnections?: number;
    /**
     * `synchronous_commit = off` on this pool's sessions: a commit returns before its WAL is flushed, so a
     * PostgreSQL crash can forget the last few hundred milliseconds of this pool's commits. Only for writes
     * whose loss is harmless (the webhook worker's claims and attempt records: a forgotten one means the event
     * is sent again, which at-least-once delivery allows).
     */
    asyncCommit?: boolean;
  },
): Database {
  const pool = new pg.Pool({
    connectionString,
    max: options.maxConnections ?? 10,
    ...(options.asyncCommit && { options: '-c synchronous_commit=off' }),
    // An idle connection can be cut by the server or a proxy; the pool reports it here instead of crashing.
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on('error', (error) => options.logger.warn({ err: error }, 'idle database connection failed'));
  return new Kysely<Database extends Kysely<infer S> ? S : never>({ dialect: new PostgresDialect({ pool }) });
}

export async function migrateToLatest(db: Database, logger: Logger): Promise<void> {
  const migrator = new Migrator({ db, provider: migrationProvider });
  const { error, results } = await migrator.migrateToLatest();
  for (const result of results ?? []) {
    if (result.status === 'Success') logger.info({ migration: result.migrationName }, 'migration applied');
    if (result.status === 'Error') logger.error({ migration: result.migrationName }, 'migration failed');
  }
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
