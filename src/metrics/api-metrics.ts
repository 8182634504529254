import { Counter, Histogram, type Registry } from 'prom-client';

export interface ApiMetrics {
  /** `operation` is the contract's operationId (or `unknown`), never the raw path: label values stay bounded. */
  answered(operation: string, status: number, seconds: number): void;
}

export function createApiMetrics(registry: Registry): ApiMetrics {
  const requests = new Counter({
    name: 'qroute_api_requests_total',
    help: 'API requests answered, by operationId (unknown for paths outside the contract) and HTTP status.',
    labelNames: ['operation', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'qroute_api_request_duration_seconds',
    help: 'Time to answer API requests, by operationId.',
    labelNames: ['operation'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    answered(operation, status, seconds) {
      requests.inc({ operation, status: String(status) });
      duration.observe({ operation }, seconds);
    },
  };
}
