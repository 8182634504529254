import { Gauge, type Registry } from 'prom-client';

/**
 * A scrape must not hang on a bad database (Prometheus' own scrape timeout is 10 s by default): past this the
 * outbox gauges read NaN and `qroute_webhook_outbox_read_success` 0.
 */
const OUTBOX_READ_TIMEOUT_MS = 1_000;

/** What waits to be sent now: for the outbox gauges of GET /metrics. */
export interface OutboxBacklog {
  due: number;
  /** Age of the oldest due delivery (0 when none is due). */
  oldestDueSeconds: number;
}

export interface OutboxMetrics {
  /** Reads the backlog at scrape time with `readBacklog` (the webhooks module's query; metrics know no tables). */
  watch(readBacklog: () => Promise<OutboxBacklog>): void;
}

/**
 * The outbox as the database sees it (every worker's backlog, not this process's), read at scrape time with one
 * query. At most one read runs at a time: scrapes that come while one is slow share it instead of taking more
 * connections from the pool.
 */
export function createOutboxMetrics(registry: Registry): OutboxMetrics {
  let readBacklog: (() => Promise<OutboxBacklog>) | undefined;
  let reading: Promise<OutboxBacklog | undefined> | undefined;
  let latest: Promise<OutboxBacklog | undefined> | undefined;

  const read = (): Promise<OutboxBacklog | undefined> => {
    if (!readBacklog) return Promise.resolve(undefined);
    reading ??= readBacklog()
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
    watch: (read) => {
      readBacklog = read;
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
