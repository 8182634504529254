import type { Logger } from 'pino';
import type { RetentionConfig } from '../config.js';
import type { Database } from '../db/schema/index.js';
import { PRUNE_BATCH_SIZE, pruneExpired } from './prune.js';

export interface PruningJob {
  start(): void;
  /** Stops the timers and waits for a run in progress (it ends after its current batch statement). */
  stop(): Promise<void>;
  /** One run now (what the timers call); never rejects: a failure is logged and the next run tries again. */
  runOnce(): Promise<void>;
}

export interface PruningJobOptions {
  db: Database;
  /**
   * Where the pruning lock (a session advisory lock) is held: a handle with real sessions, the direct connection
   * when `db` goes through a transaction pooler (default: `db`). See pruneExpired.
   */
  lockDb?: Database;
  retention: RetentionConfig;
  /** Sessions idle this long are pruned (config.dashboard.sessionIdleMs); unset: only past their absolute expiry. */
  sessionIdleMs?: number;
  logger: Logger;
  /** The first run comes this long after start: soon, but out of the way of start-up (default 1 min). */
  firstRunDelayMs?: number;
  batchSize?: number;
}

/**
 * Prunes expired rows (see prune.ts) shortly after start and then every `retention.intervalMs`, in the server and
 * in each standalone worker: the advisory lock lets one of them run at a time and the others skip that round.
 */
export function createPruningJob(options: PruningJobOptions): PruningJob {
  const logger = options.logger.child({ part: 'maintenance' });
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<void> | undefined;
  let stopped = false;

  const runOnce = async () => {
    if (running) return running;
    running = (async () => {
      const started = Date.now();
      try {
        const counts = await pruneExpired(
          options.db,
          { ...options.retention, sessionIdleMs: options.sessionIdleMs },
          options.batchSize ?? PRUNE_BATCH_SIZE,
          options.lockDb ?? options.db,
        );
        if (!counts) logger.debug('pruning skipped: another process is pruning');
        else logger.info({ deleted: counts, ms: Date.now() - started }, 'pruned expired rows');
      } catch (error) {
        logger.error({ err: error }, 'pruning failed; the next run tries again');
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  return {
    runOnce,
    start: () => {
      if (stopped || timers.length > 0) return;
      // Unref'd: pruning must never be what keeps a process from exiting.
      timers.push(setTimeout(() => void runOnce(), options.firstRunDelayMs ?? 60_000).unref());
      timers.push(setInterval(() => void runOnce(), options.retention.intervalMs).unref());
    },
    stop: async () => {
      stopped = true;
      for (const timer of timers.splice(0)) clearTimeout(timer);
      await running;
    },
  };
}
