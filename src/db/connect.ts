import type { Logger } from 'pino';
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS, type DatabaseTimeouts, migrateToLatest, NO_STATEMENT_TIMEOUTS, type Pooling } from './database.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import { applyRoleTimeouts, checkPooledTimeouts } from './role-timeouts.js';
import type { Database } from './schema/index.js';

/** Connections to a session-capable server that only the direct connection holds (see openDatabase). */
const DIRECT_CONNECTIONS = 2;

export interface DatabaseConnection {
  /** Ordinary queries: DATABASE_URL, a transaction-mode pool when `pooling` says so. */
  db: Database;
  connectionString: string;
  pooling: Pooling;
  /**
   * The primary directly (DATABASE_DIRECT_URL), for what needs a session: advisory locks held across statements.
   * The same object as `db` when there is no pooler in between.
   */
  directDb: Database;
  /** For LISTEN connections (NotificationListener), which hold their session for as long as they listen. */
  directConnectionString: string;
  /** Which database this is, for people (never the password): `embedded PostgreSQL in /data (port 5432)`. */
  description: string;
  /** Closes the pool and, when `stopEmbedded` says so, the embedded server. */
  close(): Promise<void>;
}

/**
 * Opens the configured database and brings its schema up to date: `DATABASE_URL` when set, else the embedded
 * PostgreSQL in `DATA_DIR`. The server stops the embedded database on shutdown (`stopEmbedded: 'always'`); the
 * CLI stops it only when it had to start it itself (`'if-started-here'`), so it never pulls it from under a
 * running server. Only the server creates a cluster in an empty DATA_DIR (`createEmbedded`, default true): the
 * CLI and the standalone worker pointed at a wrong DATA_DIR fail with NoEmbeddedClusterError instead of
 * quietly working on a new, empty database.
 */
export async function openDatabase(
  config: { databaseUrl?: string | undefined; databaseDirectUrl?: string | undefined; dataDir: string },
  options: {
    logger: Logger;
    stopEmbedded: 'always' | 'if-started-here';
    createEmbedded?: boolean;
    maxConnections?: number;
    timeouts?: DatabaseTimeouts;
  },
): Promise<DatabaseConnection> {
  const logger = options.logger;
  const embedded = config.databaseUrl
    ? undefined
    : await startEmbeddedPostgres(config.dataDir, logger, { create: options.createEmbedded ?? true });
  const connectionString = config.databaseUrl ?? embedded!.localConnectionString();
  // With DATABASE_DIRECT_URL, DATABASE_URL may be a transaction-mode pooler: what needs a session goes direct.
  const directConnectionString = config.databaseUrl === undefined ? connectionString : (config.databaseDirectUrl ?? connectionString);
  const pooling: Pooling = directConnectionString === connectionString ? 'session' : 'transaction';
  const timeouts = options.timeouts ?? DEFAULT_DATABASE_TIMEOUTS;
  // Migrations get a session of their own without the statement timeouts: building an index may take minutes.
  const migrationDb = createDatabase(directConnectionString, { logger, maxConnections: 1, timeouts: NO_STATEMENT_TIMEOUTS });
  try {
    await migrateToLatest(migrationDb, logger);
    // A pooler's server sessions cannot be given the timeouts as startup options: they become the role's settings.
    if (pooling === 'transaction') await applyRoleTimeouts(migrationDb, timeouts);
  } catch (error) {
    if (embedded?.startedHere) await embedded.stop();
    throw error;
  } finally {
    await migrationDb.destroy();
  }
  const db = createDatabase(connectionString, { logger, maxConnections: options.maxConnections, timeouts, pooling });
  const directDb = pooling === 'session' ? db : createDatabase(directConnectionString, { logger, maxConnections: DIRECT_CONNECTIONS, timeouts });
  // Not waited for: a pooler that cannot reach PostgreSQL yet must not stop the start (the service waits out outages).
  if (pooling === 'transaction') {
    checkPooledTimeouts(db, timeouts, logger).catch((error: unknown) => logger.warn({ err: error }, 'could not check the pooled connections\' timeouts'));
  }
  return {
    db,
    connectionString,
    pooling,
    directDb,
    directConnectionString,
    description: embedded ? `embedded PostgreSQL in ${config.dataDir} (port ${embedded.port})` : describeUrl(connectionString),
    close: async () => {
      await db.destroy();
      if (directDb !== db) await directDb.destroy();
      if (embedded && (options.stopEmbedded === 'always' || embedded.startedHere)) await embedded.stop();
    },
  };
}

/** `PostgreSQL qroute@db.internal:5432/qroute (DATABASE_URL)`: enough to tell databases apart, no password. */
function describeUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const user = url.username ? `${decodeURIComponent(url.username)}@` : '';
    return `PostgreSQL ${user}${url.host || 'localhost'}${url.pathname} (DATABASE_URL)`;
  } catch {
    return 'PostgreSQL at DATABASE_URL';
  }
}
