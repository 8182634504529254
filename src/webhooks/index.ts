import type { Logger } from 'pino';
import { WEBHOOKS_DUE_CHANNEL } from '../db/channels.js';
import { NotificationListener } from '../db/notification-listener.js';
import { createDatabase, type Pooling } from '../db/database.js';
import type { Metrics } from '../metrics/index.js';
import { OpenedSecrets } from './opened-secrets.js';
import { DEFAULT_RETRY_DELAYS_MS, defaultJitter, type RetryPolicy } from './retry-schedule.js';
import type { SecretBox } from './secret-box.js';
import { type SendTimeouts, WebhookSender } from './sender.js';
import { DEFAULT_WORKER_OPTIONS, WebhookWorker, type WorkerOptions } from './worker.js';

export interface WebhookDeliveryTuning {
  retryPolicy?: RetryPolicy;
  timeouts?: SendTimeouts;
  worker?: Partial<WorkerOptions>;
}

/**
 * The delivery side: a worker, the sender it uses, and a LISTEN connection that wakes it as soon as a scan batch
 * adds deliveries (the poll timer covers retries falling due and any missed notification).
 */
export function createWebhookDelivery(
  deps: {
    /** DATABASE_URL (its `pooling` says whether a transaction-mode pooler is in between). */
    connectionString: string;
    pooling?: Pooling;
    /** The primary directly, for the LISTEN connection (a session of its own); default `connectionString`. */
    directConnectionString?: string;
    box: SecretBox;
    allowPrivateWebhookUrls: boolean;
    logger: Logger;
    metrics?: Metrics;
  },
  tuning: WebhookDeliveryTuning = {},
) {
  const logger = deps.logger.child({ part: 'webhooks' });
  // The worker's own pool, with synchronous commit: a claim is durable before its request is sent, and an outcome
  // before the worker forgets it. With asynchronous commit a PostgreSQL crash forgot the last few hundred
  // milliseconds of both whenever no other commit had flushed them: forgotten claims were made and sent again at
  // once, forgotten outcomes sent again when their lease ran out (BENCH_PARTS=webhook-crash). Claims and outcomes
  // are each written many to a statement (AttemptRecorder), so a WAL flush is shared by a batch, not paid per delivery.
  const db = createDatabase(deps.connectionString, { logger, maxConnections: 8, pooling: deps.pooling });
  const options = { ...DEFAULT_WORKER_OPTIONS, ...tuning.worker };
  const sender = new WebhookSender({
    allowPrivateAddresses: deps.allowPrivateWebhookUrls,
    timeouts: tuning.timeouts,
    maxSocketsPerReceiver: Math.max(options.perAccountConcurrencyCeiling, options.perAccountConcurrency),
  });
  const worker = new WebhookWorker(
    { db, box: new OpenedSecrets(deps.box), sender, retryPolicy: tuning.retryPolicy ?? { delaysMs: DEFAULT_RETRY_DELAYS_MS, jitter: defaultJitter } },
    logger,
    options,
  );
  deps.metrics?.webhooks.watch(worker);
  deps.metrics?.pools.watch('webhooks', db);
  const listener = new NotificationListener(
    deps.directConnectionString ?? deps.connectionString,
    WEBHOOKS_DUE_CHANNEL,
    { onNotification: () => worker.wake(), onAvailability: (listening) => listening && worker.wake() },
    logger,
  );
  return {
    worker,
    start: async () => {
      await listener.start();
      worker.start();
    },
    /** Lets deliveries in flight finish (bounded by `timeoutMs`), gives back what is left, closes sockets. */
    stop: async (timeoutMs: number) => {
      await listener.stop();
      await worker.stop(timeoutMs);
      sender.close();
      await db.destroy();
    },
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
