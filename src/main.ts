import { loadStartupSettings, runMain, stopOnSignals } from './lifecycle.js';
import { createService } from './service.js';

/**
 * Reads config, opens the database (embedded unless DATABASE_URL is set), serves the API and short links, runs
 * the webhook worker (unless WEBHOOK_WORKER=false) and the background jobs, and stops cleanly.
 */
async function main(): Promise<void> {
  const { config, box } = await loadStartupSettings('qroute');
  const service = await createService(config, { role: 'server', box });
  const { logger } = service;
  logger.info(
    { port: service.server!.port, siteUrl: config.siteUrl, api: `${config.siteUrl}/api/v1`, webhookWorker: config.webhookWorker },
    'qroute is listening',
  );

  stopOnSignals(async (signal) => {
    logger.info({ signal }, 'shutting down');
    await service.stop(config.shutdownGraceMs);
    logger.info('stopped');
  }, logger);
}

runMain('qroute', main);
