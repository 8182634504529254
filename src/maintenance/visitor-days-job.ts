import type { Logger } from 'pino';
import { DAY_END_GRACE_MS, deletePastVisitorDays } from '../audience/visitor-days.js';
import type { Database } from '../db/schema/index.js';

const DAY_MS = 86_400_000;
/** Runs again this often whatever the clock says: a run missed (database down at midnight) is made up soon. */
const EVERY_MS = 15 * 60_000;

export interface VisitorDaysJob {
  start(): void;
  stop(): Promise<void>;
  /** One run now (what the timers call); never rejects: a failure is logged and the next run tries again. */
  runOnce(): Promise<void>;
}

/**
 * Destroys each UTC day's visitor secret and its (code, visitor) pairs once the day has ended (plus
 * DAY_END_GRACE_MS, src/audience/visitor-days.ts): a run just after each midnight's grace, one at start, and one
 * every EVERY_MS in case a run failed. Every server and worker runs it: the delete is idempotent and its tables
 * hold one day's rows. Which days have ended is the database's clock's say; `now` is a test's clock (moved to end a
 * day), which then decides that too, and times the runs.
 */
export function createVisitorDaysJob(options: { db: Database; logger: Logger; now?: () => number }): VisitorDaysJob {
  const logger = options.logger.child({ part: 'maintenance' });
  const now = options.now ?? Date.now;
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<void> | undefined;
  let stopped = false;

  const runOnce = async () => {
    if (running) return running;
    running = (async () => {
      try {
        // By the database's clock, which every instance shares; a test's clock when it moves time.
        const deleted = await deletePastVisitorDays(options.db, options.now?.());
        if (deleted.secrets + deleted.visitors > 0) logger.info({ deleted }, "past days' visitor secrets and visitors destroyed");
      } catch (error) {
        logger.error({ err: error }, "past days' visitor secrets could not be destroyed; the next run tries again");
      } finally {
        running = undefined;
      }
    })();
    return running;
  };

  const afterNextMidnight = () => {
    if (stopped) return;
    const at = now();
    const due = (Math.floor((at - DAY_END_GRACE_MS) / DAY_MS) + 1) * DAY_MS + DAY_END_GRACE_MS + 1_000;
    const timer = setTimeout(() => {
      timers.splice(timers.indexOf(timer), 1);
      void runOnce().then(afterNextMidnight);
    }, Math.max(1_000, due - at));
    timer.unref();
    timers.push(timer);
  };

  return {
    runOnce,
    start: () => {
      if (stopped || timers.length > 0) return;
      void runOnce();
      afterNextMidnight();
      // Unref'd: never what keeps a process from exiting.
      timers.push(setInterval(() => void runOnce(), EVERY_MS).unref());
    },
    stop: async () => {
      stopped = true;
      for (const timer of timers.splice(0)) clearTimeout(timer);
      await running;
    },
  };
}
