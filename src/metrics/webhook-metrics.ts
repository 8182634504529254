import { Counter, type Registry } from 'prom-client';

/** The worker's running counts (WebhookWorker.stats), read when scraped. */
export interface WebhookWorkerView {
  readonly stats: Readonly<Record<WebhookAttemptOutcome, number>>;
}

/**
 * `succeeded` 2xx; `retried` failed with a retry scheduled; `failed` failed for good; `abandoned` failed at claim
 * time (its last attempt never recorded); `unrecorded` finished after its claim lapsed; `released` given back
 * unsent at shutdown.
 */
const OUTCOMES = ['succeeded', 'retried', 'failed', 'abandoned', 'unrecorded', 'released'] as const;
export type WebhookAttemptOutcome = (typeof OUTCOMES)[number];

export interface WebhookMetrics {
  watch(worker: WebhookWorkerView): void;
}

export function createWebhookMetrics(registry: Registry): WebhookMetrics {
  let worker: WebhookWorkerView | undefined;
  new Counter({
    name: 'qroute_webhook_attempts_total',
    help: 'Webhook delivery attempts by this process, by outcome: succeeded, retried, failed (for good), abandoned, unrecorded, released.',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const outcome of OUTCOMES) this.inc({ outcome }, worker?.stats[outcome] ?? 0);
    },
  });
  return {
    watch: (watched) => {
      worker = watched;
    },
  };
}
