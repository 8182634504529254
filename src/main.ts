import { createScanRollupJob } from './analytics/index.js';
import { createApp, createRequestListener } from './app.js';
import { openDatabase } from './db/connect.js';
import { createImportJob } from './imports/import-job.js';
import { loadStartupSettings, runMain, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { createPruningJob } from './maintenance/pruning-job.js';
import { createMetrics } from './metrics/index.js';
import { createQrImages } from './qr/index.js';
import { createRedirect } from './redirect/index.js';
import { journalDirFor } from './redirect/scan-journal.js';
import { listen } from './server.js';
import { createWebhookDelivery } from './webhooks/index.js';

/**
 * Reads config, opens the database (embedded unless DATABASE_URL is set), serves the API and short links, runs
 * the webhook worker (unless WEBHOOK_WORKER=false), and stops cleanly.
 */
async function main(): Promise<void> {
  const { config, box } = await loadStartupSettings('qroute');
  const logger = createLogger({ level: config.logLevel });
  const database = await openDatabase(config, { logger: logger.child({ part: 'db' }), stopEmbedded: 'always', timeouts: config.databaseTimeouts });
  const images = createQrImages(config);
  // Metrics cost nothing when nobody may read them: with METRICS_TOKEN unset there is no registry at all.
  const metrics = config.metricsToken ? createMetrics() : undefined;
  const app = createApp({ config, db: database.db, logger, box, images, metrics });
  const redirect = createRedirect({
    db: database.db,
    connectionString: database.connectionString,
    logger,
    metrics,
    recorder: { commitTimeoutMs: config.scanCommitTimeoutMs, maxBuffered: config.scanMemoryLimit, maxConcurrentBatches: config.scanWriteConcurrency },
    journal: { ...config.scanJournal, dir: journalDirFor(config.scanJournal.dir, config.databaseUrl) },
  });
  await redirect.start();
  const webhooks = config.webhookWorker
    ? createWebhookDelivery({ connectionString: database.connectionString, box, allowPrivateWebhookUrls: config.allowPrivateWebhookUrls, logger, metrics })
    : undefined;
  await webhooks?.start();
  // Retention: one process at a time prunes (an advisory lock), so every instance and worker may run it.
  const pruning = createPruningJob({ db: database.db, retention: config.retention, sessionIdleMs: config.dashboard.sessionIdleMs, logger });
  pruning.start();
  // Analytics: new scans are folded into the hourly rollup every few seconds (one instance at a time).
  const rollup = createScanRollupJob({ db: database.db, logger });
  rollup.start();
  // Bulk imports: confirmed files are worked through in batches by whichever instance claims them first.
  const imports = createImportJob({ db: database.db, logger, siteUrl: config.siteUrl });
  imports.start();
  const server = await listen(createRequestListener(app, redirect.handler), config.port, undefined, {
    timeouts: config.httpTimeouts,
    connections: config.httpConnections,
    observer: metrics?.connections,
  });
  logger.info({ port: server.port, siteUrl: config.siteUrl, api: `${config.siteUrl}/api/v1`, webhookWorker: config.webhookWorker }, 'qroute is listening');

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    await server.close(config.shutdownGraceMs);
    // Scans still in memory are written (with their outbox rows) before the worker stops.
    await redirect.stop(config.shutdownGraceMs);
    await webhooks?.stop(config.shutdownGraceMs);
    await pruning.stop();
    await rollup.stop();
    await imports.stop();
    await images.close();
    await database.close();
    logger.info('stopped');
  }, logger);
}

runMain('qroute', main);
