import { Gauge, type Registry } from 'prom-client';
import type { Database } from '../db/schema/index.js';
import { type OutboxBacklog, readOutboxBacklog } from '../webhooks/outbox.js';

/**
 * A scrape must not hang on a bad database (Prometheus' own scrape timeout is 10 s by default): past this the
 * outbox gauges read NaN and `qroute_webhook_outbox_read_success` 0.
 */
const OUTBOX_READ_TIMEOUT_MS = 1_000;

export interface OutboxMetrics {
  watch(db: Database): void;
}

/**
 * The outbox as the database sees it (every worker's backlog, not this process's), read at scrape time with one
 * query. At most one read runs at a time: scrapes that come while one is slow share it instead of taking more
 * connections from the pool.
 */
export function createOutboxMetrics(registry: Registry): OutboxMetrics {
  let db: Database | undefined;
  let reading: Promise<OutboxBacklog | undefined> | undefined;
  let latest: Promise<OutboxBacklog | undefined> | undefined;

  const read = (): Promise<OutboxBacklog | undefined> => {
    if (!db) return Promise.resolve(undefined);
    reading ??= readOutboxBacklog(db)
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    return withTimeout(reading, OUTBOX_READ_TIMEOUT_MS);
  };
  // prom-client collects a scrape's metrics together, so the three gauges share one read.
  const backlog = (): Promise<OutboxBacklog | undefined> =>
    (latest ??= read().finally(() => {
      latest = undefined;
    }));

  new Gauge({
    name: 'qroute_webhook_outbox_due',
    help: 'Webhook deliveries due now and not yet claimed (enabled endpoints only). NaN when the database did not answer.',
    registers: [registry],
    async collect() {
      this.set((await backlog())?.due ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'qroute_webhook_outbox_oldest_due_seconds',
    help: 'How long the oldest due webhook delivery has waited (0 when none is due). NaN when the database did not answer.',
    registers: [registry],
    async collect() {
      this.set((await backlog())?.oldestDueSeconds ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'qroute_webhook_outbox_read_success',
    help: `1 when the outbox gauges were read from the database at this scrape, 0 when it failed or took over ${OUTBOX_READ_TIMEOUT_MS} ms.`,
    registers: [registry],
    async collect() {
      this.set((await backlog()) ? 1 : 0);
    },
  });
  return {
    watch: (watched) => {
      db = watched;
    },
  };
}

function withTimeout<T>(promise: Promise<T | undefined>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
