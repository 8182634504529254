import { CompiledQuery, Kysely, Migrator, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Logger } from 'pino';
import { migrationProvider } from './migrations/index.js';
import { guardedClientClass } from './pg-client.js';
import type { Database } from './schema/index.js';

const INT8_OID = 20;

/** Where a Kysely instance made here keeps its pg pool, for `poolUsage` (Kysely does not expose its driver). */
const POOL = Symbol('pg pool');
/** Where it keeps its Pooling, for `executePrepared`. */
const POOLING = Symbol('pooling');

/**
 * How a pool's connections reach PostgreSQL.
 * - `session`: directly (or through a session-mode pooler), so each connection is a session of its own: the timeouts
 *   go as startup options and fixed statements are prepared once per connection.
 * - `transaction`: through a transaction-mode pooler (PgBouncer's `pool_mode = transaction`), where consecutive
 *   transactions of one client connection may run on different server sessions. Nothing may outlive a transaction:
 *   no startup options (PgBouncer refuses `options`), no named prepared statements; the timeouts come from the role's
 *   settings instead (src/db/role-timeouts.ts).
 */
export type Pooling = 'session' | 'transaction';

/** A pool's connections at this moment, as pg-pool counts them. */
export interface PoolUsage {
  total: number;
  idle: number;
  /** Queries waiting for a free connection. */
  waiting: number;
}

/** How long the service waits on PostgreSQL before it treats the database as unavailable. */
export interface DatabaseTimeouts {
  /** Opening a connection, and waiting for a free one in the pool. */
  connectMs: number;
  /** Server side: a statement running longer is cancelled (0: no limit, for migrations). */
  statementMs: number;
  /** Server side: a session idle inside a transaction longer is ended, so it cannot hold locks forever. */
  idleInTransactionMs: number;
  /** Client side: no answer at all for this long (a hung server) ends the connection (0: never). */
  queryMs: number;
}

/**
 * The defaults of DATABASE_*_TIMEOUT_MS (config.ts reads the settings over them), also for pools made outside the
 * server (tests, tools). The client-side limit is past the statement timeout, so a live server always answers first
 * (with its own cancellation).
 */
export const DEFAULT_DATABASE_TIMEOUTS: DatabaseTimeouts = { connectMs: 5_000, statementMs: 30_000, idleInTransactionMs: 60_000, queryMs: 35_000 };

/** How far past the statement timeout the client gives up on a silent server (0 statement timeout: none either). */
export const QUERY_TIMEOUT_MARGIN_MS = 5_000;

/** For one-off sessions that may run long on purpose (migrations building indexes). */
export const NO_STATEMENT_TIMEOUTS: DatabaseTimeouts = { ...DEFAULT_DATABASE_TIMEOUTS, statementMs: 0, queryMs: 0 };

/**
 * A Kysely instance over its own pg pool. Type parsers are set on this pool only (no process-wide pg state):
 * bigint counters come back as numbers, which is exact up to 2^53 scans.
 */
export function createDatabase(
  connectionString: string,
  options: {
    logger: Logger;
    maxConnections?: number;
    timeouts?: DatabaseTimeouts;
    /** Default `session`; `transaction` for DATABASE_URL when DATABASE_DIRECT_URL is set (see Pooling). */
    pooling?: Pooling;
  },
): Database {
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  const pooling = options.pooling ?? 'session';
  const sessionSettings = [
    `-c statement_timeout=${timeouts.statementMs}`,
    `-c idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
  ];
  const pool = new pg.Pool({
    connectionString,
    // The client-side limit holds either way: it needs nothing from the server.
    Client: guardedClientClass({ logger: options.logger, queryTimeoutMs: timeouts.queryMs }),
    max: options.maxConnections ?? 10,
    ...(pooling === 'session' ? { options: sessionSettings.join(' ') } : {}),
    connectionTimeoutMillis: timeouts.connectMs,
    // Notices a peer that vanished without closing the connection (a crashed host, a dropped NAT entry).
    keepAlive: true,
    // An idle connection can be cut by the server or a proxy; the pool reports it here instead of crashing.
    idleTimeoutMillis: 30_000,
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // pg-pool attaches the client to the error; log what explains it, not the client's whole state.
  pool.on('error', (error) => options.logger.warn({ err: { message: error.message, code: (error as { code?: string }).code } }, 'idle database connection failed'));
  const db = new Kysely<Database extends Kysely<infer S> ? S : never>({ dialect: new PostgresDialect({ pool }) });
  Object.defineProperty(db, POOL, { value: pool });
  Object.defineProperty(db, POOLING, { value: pooling });
  // Kysely ends the pool only if a query went through Kysely; a pool used only by executePrepared (the webhook
  // worker's) stayed open, and stopping the embedded PostgreSQL then terminated its connections (57P01 warnings).
  const destroyKysely = db.destroy.bind(db);
  Object.defineProperty(db, 'destroy', {
    value: async () => {
      await destroyKysely();
      if (!pool.ending) await pool.end();
    },
  });
  return db;
}

/** The pool usage of a database made by `createDatabase` (undefined for any other Kysely instance). */
export function poolUsage(db: Database): PoolUsage | undefined {
  const pool = (db as unknown as { [POOL]?: pg.Pool })[POOL];
  return pool && { total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount };
}

/** The Pooling a database made by `createDatabase` was made with (`session` for any other Kysely instance). */
export function poolingOf(db: Database): Pooling {
  return (db as unknown as { [POOLING]?: Pooling })[POOLING] ?? 'session';
}

/**
 * Runs a fixed statement as a named prepared statement on the pool of a database made by `createDatabase`:
 * PostgreSQL parses and plans it once per connection instead of on every call (the scan path's batch write).
 * Through a transaction-mode pooler it runs unnamed (a statement prepared on one server session would be missing,
 * or another one's, on the next); so does it on any other Kysely instance.
 */
export async function executePrepared<Row>(db: Database, statement: { name: string; text: string }, values: unknown[]): Promise<Row[]> {
  const pool = (db as unknown as { [POOL]?: pg.Pool })[POOL];
  if (!pool) return (await db.executeQuery<Row>(CompiledQuery.raw(statement.text, values))).rows as Row[];
  const name = poolingOf(db) === 'session' ? statement.name : undefined;
  return (await pool.query({ name, text: statement.text, values })).rows as Row[];
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
