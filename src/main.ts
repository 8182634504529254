import { createApp, createRequestListener } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { createLogger } from './logger.js';
import { createRedirect } from './redirect/index.js';
import { listen } from './server.js';

/** Reads config, opens the database (embedded unless DATABASE_URL is set), serves, and stops cleanly. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`qroute: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase(config, { logger: logger.child({ part: 'db' }), stopEmbedded: 'always' });
  const app = createApp({ config, db: database.db, logger });
  const redirect = createRedirect({ db: database.db, connectionString: database.connectionString, logger });
  await redirect.start();
  const server = await listen(createRequestListener(app, redirect.handler), config.port);
  logger.info({ port: server.port, siteUrl: config.siteUrl, api: `${config.siteUrl}/api/v1` }, 'qroute is listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await server.close(config.shutdownGraceMs);
    await redirect.stop(config.shutdownGraceMs);
    await database.close();
    logger.info('stopped');
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`qroute failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
