import { NoEmbeddedClusterError } from './db/embedded-postgres.js';
import { loadStartupSettings, runMain, stopOnSignals } from './lifecycle.js';
import { createService } from './service.js';

/**
 * A webhook delivery worker on its own (`npm run worker`): run as many as needed next to servers started with
 * WEBHOOK_WORKER=false. It claims with SKIP LOCKED, so workers never send the same attempt twice.
 */
async function main(): Promise<void> {
  const { config, box } = await loadStartupSettings('qroute worker');
  // Like the CLI: reuse a running server's embedded database, and stop it on exit only if started here. Never
  // create one: a worker pointed at the wrong DATA_DIR must fail, not deliver from an empty database.
  const service = await createService(config, { role: 'worker', box }).catch((error: unknown) => {
    if (!(error instanceof NoEmbeddedClusterError)) throw error;
    process.stderr.write(`qroute worker: ${error.message}\n`); // the operator's mistake, not ours: no stack
    process.exit(1);
  });
  const { logger } = service;
  if (service.server) logger.info({ port: service.server.port }, 'worker metrics at /metrics');
  logger.info({ worker: service.webhooks!.worker.id }, 'qroute webhook worker is running');
  // The worker's own timers do not hold the process open (they must not keep a server from exiting), and while
  // the database is down no socket does either: without this the worker would exit 0 in the middle of an outage.
  const keepAlive = setInterval(() => undefined, 60_000);

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'worker shutting down');
    clearInterval(keepAlive);
    await service.stop(config.shutdownGraceMs);
    logger.info('worker stopped');
  }, logger);
}

runMain('qroute worker', main);
