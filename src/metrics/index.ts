import { collectDefaultMetrics, Registry } from 'prom-client';
import { type ApiMetrics, createApiMetrics } from './api-metrics.js';
import { type ConnectionObserver, createConnectionMetrics } from './connection-metrics.js';
import { createOutboxMetrics, type OutboxMetrics } from './outbox-metrics.js';
import { createPoolMetrics, type PoolMetrics } from './pool-metrics.js';
import { createRedirectMetrics, type RedirectObserver } from './redirect-metrics.js';
import { createReplicaMetrics, type ReplicaMetrics } from './replica-metrics.js';
import { createScanMetrics, type ScanMetrics } from './scan-metrics.js';
import { createWebhookMetrics, type WebhookMetrics } from './webhook-metrics.js';

export type { ConnectionObserver } from './connection-metrics.js';
export { createMetricsHandler, metricsOnlyListener } from './metrics-endpoint.js';

/**
 * One prom-client Registry per process part that serves `/metrics` (never the global default registry, so tests
 * can run several apps in one process), with every metric defined up front. Each part hands over what is read
 * at scrape time (`watch`) or gets an observer for what happens on its path.
 */
export interface Metrics {
  registry: Registry;
  redirect: RedirectObserver;
  scans: ScanMetrics;
  webhooks: WebhookMetrics;
  outbox: OutboxMetrics;
  api: ApiMetrics;
  pools: PoolMetrics;
  /** Read replicas (DATABASE_READ_URL): their state and where stale-tolerant reads went. */
  replicas: ReplicaMetrics;
  /** The HTTP server's open connections and the ones refused over its caps. */
  connections: ConnectionObserver;
}

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new Registry();
  // Node's own (CPU, memory, event loop lag, GC, handles) under their usual names, so stock dashboards work.
  if (options.processMetrics ?? true) collectDefaultMetrics({ register: registry });
  return {
    registry,
    redirect: createRedirectMetrics(registry),
    scans: createScanMetrics(registry),
    webhooks: createWebhookMetrics(registry),
    outbox: createOutboxMetrics(registry),
    api: createApiMetrics(registry),
    pools: createPoolMetrics(registry),
    replicas: createReplicaMetrics(registry),
    connections: createConnectionMetrics(registry),
  };
}
