import { Counter, Gauge, type Registry } from 'prom-client';

/** Why the server closed a connection at once, without reading from it (see listen in src/server.ts). */
export type ConnectionRefusal = 'total' | 'per_address';

/** Told by the HTTP server about the connections it holds and the ones it refuses over its caps. */
export interface ConnectionObserver {
  /** `open` reads the server's current count of open connections (read at scrape time). */
  watch(open: () => number): void;
  refused(limit: ConnectionRefusal): void;
  /** An idle keep-alive connection was closed to make room for a new one from the same address. */
  closedIdle(): void;
}

export function createConnectionMetrics(registry: Registry): ConnectionObserver {
  let open: () => number = () => 0;
  new Gauge({
    name: 'qroute_http_connections',
    help: 'TCP connections the HTTP server holds open now (idle keep-alive ones included).',
    registers: [registry],
    collect() {
      this.set(open());
    },
  });
  const refused = new Counter({
    name: 'qroute_http_connections_refused_total',
    help: 'Connections closed on arrival because a cap was reached: total (HTTP_MAX_CONNECTIONS) or per_address (HTTP_MAX_CONNECTIONS_PER_ADDRESS).',
    labelNames: ['limit'],
    registers: [registry],
  });
  const closedIdle = new Counter({
    name: 'qroute_http_idle_connections_closed_total',
    help: 'Idle keep-alive connections closed to make room for a new connection from the same address (HTTP_MAX_CONNECTIONS_PER_ADDRESS).',
    registers: [registry],
  });
  // Both series exist from the start, so an alert on rate() sees the first refusal.
  refused.inc({ limit: 'total' }, 0);
  refused.inc({ limit: 'per_address' }, 0);
  return {
    watch(read) {
      open = read;
    },
    refused(limit) {
      refused.inc({ limit });
    },
    closedIdle() {
      closedIdle.inc();
    },
  };
}
