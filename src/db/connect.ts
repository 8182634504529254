import type { Logger } from 'pino';
import { createDatabase, type DatabaseTimeouts, migrateToLatest, NO_STATEMENT_TIMEOUTS } from './database.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';
import type { Database } from './schema/index.js';

export interface DatabaseConnection {
  db: Database;
  connectionString: string;
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
  config: { databaseUrl?: string | undefined; dataDir: string },
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
  // Migrations get a session of their own without the statement timeouts: building an index may take minutes.
  const migrationDb = createDatabase(connectionString, { logger, maxConnections: 1, timeouts: NO_STATEMENT_TIMEOUTS });
  try {
    await migrateToLatest(migrationDb, logger);
  } catch (error) {
    if (embedded?.startedHere) await embedded.stop();
    throw error;
  } finally {
    await migrationDb.destroy();
  }
  const db = createDatabase(connectionString, { logger, maxConnections: options.maxConnections, timeouts: options.timeouts });
  return {
    db,
    connectionString,
    description: embedded ? `embedded PostgreSQL in ${config.dataDir} (port ${embedded.port})` : describeUrl(connectionString),
    close: async () => {
      await db.destroy();
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
