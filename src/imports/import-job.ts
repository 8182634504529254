import type { Logger } from 'pino';
import type { Database } from '../db/schema/index.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { DEFAULT_BATCH_SIZE, failNextRow, processBatch } from './run-import.js';

export interface ImportJob {
  start(): void;
  /** Stops the timer and waits for the batch in progress (its transaction commits; the rest stays pending). */
  stop(): Promise<void>;
  /** Works until no import has pending rows (what the timer calls); never rejects: failures are logged. */
  runOnce(): Promise<void>;
}

export interface ImportJobOptions {
  db: Database;
  logger: Logger;
  siteUrl: string;
  /** Pause between looks for confirmed imports (default 1 s: the person is watching the progress bar). */
  intervalMs?: number;
  batchSize?: number;
}

export const DEFAULT_IMPORT_INTERVAL_MS = 1_000;

/**
 * Creates the codes of confirmed imports in the background. Every server instance runs one; each batch claims its
 * import with SKIP LOCKED, so instances share the work without doing a row twice, and an import left half-done by
 * a stopped or killed instance is picked up by the next look of any instance.
 */
export function createImportJob(options: ImportJobOptions): ImportJob {
  const logger = options.logger.child({ part: 'imports' });
  let stopping = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const runOnce = () => {
    running ??= (async () => {
      // After an unexpected failure, one row at a time until a batch of one succeeds or fails alone.
      let batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
      try {
        while (!stopping) {
          const started = Date.now();
          let batch;
          try {
            batch = await processBatch(options.db, { siteUrl: options.siteUrl, batchSize });
          } catch (error) {
            // Nothing is wrong with the rows (the database is down, frozen, out of disk or memory): the batch rolled
            // back whole, its rows are still pending, and the next run tries the same batch again.
            if (isDatabaseUnavailable(error)) throw error;
            if (batchSize > 1) {
              logger.warn({ err: error }, 'import batch failed; retrying its rows one at a time');
              batchSize = 1;
              continue;
            }
            const failed = await failNextRow(options.db, 'could not be created because of an error on our side (it was logged)');
            logger.error({ err: error, ...failed }, 'import row failed alone; marked failed');
            batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
            continue;
          }
          if (!batch) return;
          logger.debug({ ...batch, ms: Date.now() - started }, 'import batch done');
          if (batch.finished) logger.info({ importId: batch.importId }, 'import finished');
        }
      } catch (error) {
        if (isDatabaseUnavailable(error)) {
          const { message, code } = error as { message?: string; code?: string };
          logger.warn({ err: { message, code } }, 'database unavailable; the import batch is tried again on the next run');
        } else {
          logger.error({ err: error }, 'import batch failed; the next run tries again');
        }
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const schedule = () => {
    if (stopping) return;
    // Unref'd: importing must never be what keeps a process from exiting.
    timer = setTimeout(() => void runOnce().finally(schedule), options.intervalMs ?? DEFAULT_IMPORT_INTERVAL_MS).unref();
  };

  return {
    runOnce,
    start: () => {
      if (timer || stopping) return;
      schedule();
    },
    stop: async () => {
      stopping = true;
      clearTimeout(timer);
      await running;
    },
  };
}
