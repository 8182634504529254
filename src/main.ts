import { createApp, createRequestListener } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { createLogger } from './logger.js';
import { createRedirect } from './redirect/index.js';
import { listen } from './server.js';
import { createWebhookDelivery } from './webhooks/index.js';
import { loadSecretBox } from './webhooks/secret-box.js';

/**
 * Reads config, opens the database (embedded unless DATABASE_URL is set), serves the API and short links, runs
 * the webhook worker (unless WEBHOOK_WORKER=false), and stops cleanly.
 */
async function main(): Promise<void> {
  let config;
  let box;
  try {
    config = loadConfig();
    box = await loadSecretBox(config);
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
  const webhooks = config.webhookWorker
    ? createWebhookDelivery({ connectionString: database.connectionString, box, allowPrivateWebhookUrls: config.allowPrivateWebhookUrls, logger })
    : undefined;
  await webhooks?.start();
  const server = await listen(createRequestListener(app, redirect.handler), config.port);
  logger.info({ port: server.port, siteUrl: config.siteUrl, api: `${config.siteUrl}/api/v1`, webhookWorker: config.webhookWorker }, 'qroute is listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await server.close(config.shutdownGraceMs);
    // Scans still in memory are written (with their outbox rows) before the worker stops.
    await redirect.stop(config.shutdownGraceMs);
    await webhooks?.stop(config.shutdownGraceMs);
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
