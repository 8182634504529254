import type { Logger } from 'pino';
import type { Database } from '../db/schema/index.js';
import { foldScanCounts } from '../codes/scan-counts.js';
import { type FoldOptions, type FoldResult, foldScans } from './scan-rollup.js';

export interface ScanRollupJob {
  start(): void;
  /** Stops the timer and waits for a fold in progress (it stops after its current step). */
  stop(): Promise<void>;
  /** One fold now (what the timer calls); never rejects: a failure is logged and the next run tries again. */
  runOnce(): Promise<FoldResult | undefined>;
}

export interface ScanRollupJobOptions {
  db: Database;
  logger: Logger;
  /**
   * Pause between folds (default 5 s). Queries are exact whatever it is (they read the scans since the last fold
   * from `scans`); it bounds how many raw scans they read.
   */
  intervalMs?: number;
  fold?: Omit<FoldOptions, 'signal'>;
}

export const DEFAULT_ROLLUP_INTERVAL_MS = 5_000;

/**
 * Folds new scans into the hourly rollup, and scan counter increments into their codes, every few seconds.
 * Every server instance runs one; the watermark row's lock lets one rollup fold at a time, and the others skip
 * that round.
 */
export function createScanRollupJob(options: ScanRollupJobOptions): ScanRollupJob {
  const logger = options.logger.child({ part: 'analytics' });
  const stopping = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<FoldResult | undefined> | undefined;

  const runOnce = () => {
    running ??= (async () => {
      const started = Date.now();
      try {
        // The codes' counter increments are folded on the same beat (src/codes/scan-counts.ts): reads stay exact
        // either way; folding keeps what they add up small.
        const counters = await foldScanCounts(options.db);
        const result = await foldScans(options.db, { ...options.fold, signal: stopping.signal });
        if (counters > 0) logger.debug({ increments: counters }, 'scan counter increments folded into codes');
        if (result.status === 'waiting') logger.warn({ ...result }, 'scan rollup waited for a scan write that did not finish; next round tries again');
        else if (result.scans > 0) logger.debug({ ...result, ms: Date.now() - started }, 'scans folded into the rollup');
        return result;
      } catch (error) {
        logger.error({ err: error }, 'scan rollup failed; the next run tries again');
        return undefined;
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  // Each run is scheduled after the previous one ends, so a slow fold (a backlog after an outage) never overlaps.
  const schedule = () => {
    if (stopping.signal.aborted) return;
    // Unref'd: folding must never be what keeps a process from exiting.
    timer = setTimeout(() => void runOnce().finally(schedule), options.intervalMs ?? DEFAULT_ROLLUP_INTERVAL_MS).unref();
  };

  return {
    runOnce,
    start: () => {
      if (timer || stopping.signal.aborted) return;
      schedule();
    },
    stop: async () => {
      stopping.abort();
      clearTimeout(timer);
      await running;
    },
  };
}
