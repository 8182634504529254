import { openDatabase } from './db/connect.js';
import { NoEmbeddedClusterError } from './db/embedded-postgres.js';
import { loadStartupSettings, runMain, stopOnSignals } from './lifecycle.js';
import { createLogger } from './logger.js';
import { createPruningJob } from './maintenance/pruning-job.js';
import { createMetrics, metricsOnlyListener } from './metrics/index.js';
import { listen } from './server.js';
import { createWebhookDelivery } from './webhooks/index.js';
import { readOutboxBacklog } from './webhooks/outbox.js';

/**
 * A webhook delivery worker on its own (`npm run worker`): run as many as needed next to servers started with
 * WEBHOOK_WORKER=false. It claims with SKIP LOCKED, so workers never send the same attempt twice.
 */
async function main(): Promise<void> {
  const { config, box } = await loadStartupSettings('qroute worker');
  const logger = createLogger({ level: config.logLevel });
  // Like the CLI: reuse a running server's embedded database, and stop it on exit only if started here. Never
  // create one: a worker pointed at the wrong DATA_DIR must fail, not deliver from an empty database.
  const database = await openDatabase(config, {
    logger: logger.child({ part: 'db' }),
    stopEmbedded: 'if-started-here',
    createEmbedded: false,
    timeouts: config.databaseTimeouts,
  }).catch((error: unknown) => {
    if (!(error instanceof NoEmbeddedClusterError)) throw error;
    process.stderr.write(`qroute worker: ${error.message}\n`); // the operator's mistake, not ours: no stack
    process.exit(1);
  });
  // Its delivery counters live in this process, so it serves its own /metrics, on WORKER_METRICS_PORT (never PORT:
  // a worker beside a server on one host would take the server's port).
  const metrics = config.metricsToken && config.workerMetricsPort !== undefined ? createMetrics() : undefined;
  const webhooks = createWebhookDelivery({ connectionString: database.connectionString, box, allowPrivateWebhookUrls: config.allowPrivateWebhookUrls, logger, metrics });
  await webhooks.start();
  metrics?.pools.watch('main', database.db);
  metrics?.outbox.watch(() => readOutboxBacklog(database.db));
  const metricsServer = metrics && (await listen(metricsOnlyListener(metrics.registry, config.metricsToken!), config.workerMetricsPort!, undefined, config.httpTimeouts));
  if (metricsServer) logger.info({ port: metricsServer.port }, 'worker metrics at /metrics');
  // Retention: one process at a time prunes (an advisory lock), so every instance and worker may run it.
  const pruning = createPruningJob({ db: database.db, retention: config.retention, sessionIdleMs: config.dashboard.sessionIdleMs, logger });
  pruning.start();
  logger.info({ worker: webhooks.worker.id }, 'qroute webhook worker is running');
  // The worker's own timers do not hold the process open (they must not keep a server from exiting), and while
  // the database is down no socket does either: without this the worker would exit 0 in the middle of an outage.
  const keepAlive = setInterval(() => undefined, 60_000);

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    await metricsServer?.close(0);
    await webhooks.stop(config.shutdownGraceMs);
    await pruning.stop();
    await database.close();
    logger.info('worker stopped');
  }, logger);
}

runMain('qroute worker', main);
