import { ConfigError, loadConfig } from './config.js';
import { openDatabase } from './db/connect.js';
import { createLogger } from './logger.js';
import { createWebhookDelivery } from './webhooks/index.js';
import { loadSecretBox } from './webhooks/secret-box.js';

/**
 * A webhook delivery worker on its own (`npm run worker`): run as many as needed next to servers started with
 * WEBHOOK_WORKER=false. It claims with SKIP LOCKED, so workers never send the same attempt twice.
 */
async function main(): Promise<void> {
  let config;
  let box;
  try {
    config = loadConfig();
    box = await loadSecretBox(config);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`qroute worker: ${error.message}\n`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger({ level: config.logLevel });
  // Like the CLI: reuse a running server's embedded database, and stop it on exit only if started here.
  const database = await openDatabase(config, { logger: logger.child({ part: 'db' }), stopEmbedded: 'if-started-here' });
  const webhooks = createWebhookDelivery({
    connectionString: database.connectionString,
    box,
    allowPrivateWebhookUrls: config.allowPrivateWebhookUrls,
    logger,
  });
  await webhooks.start();
  logger.info({ worker: webhooks.worker.id }, 'qroute webhook worker is running');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    await webhooks.stop(config.shutdownGraceMs);
    await database.close();
    logger.info('worker stopped');
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      stop(signal).then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, 'worker shutdown failed');
          process.exit(1);
        },
      );
    });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`qroute worker failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
