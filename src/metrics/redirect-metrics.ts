import { Counter, Histogram, type Registry } from 'prom-client';

/** What a short-link request ended in, and the status it was answered with: a fixed set, so labels stay bounded. */
export const REDIRECT_OUTCOMES = {
  redirected: '302',
  paused: '404',
  gone: '404',
  /** A code scanned before its `activeFrom` (issue 28): its "not active yet" page. */
  not_active: '404',
  /** Past `expiresAt` or its scan limit, without an expired URL: the "expired" page. */
  expired: '410',
  /** Past `expiresAt` or its scan limit, sent to the code's expired URL. */
  expired_redirected: '302',
  method_not_allowed: '405',
  unavailable: '503',
} as const;

export type RedirectOutcome = keyof typeof REDIRECT_OUTCOMES;

/** Told once per short-link request; `startedAt` is the request's `performance.now()`. */
export interface RedirectObserver {
  answered(outcome: RedirectOutcome, startedAt: number): void;
}

/**
 * Redirect counts and latency. The hot path pays for plain integer increments (turned into the counter when
 * scraped) and one observation into a histogram child bound at start, never a label object per request.
 */
export function createRedirectMetrics(registry: Registry): RedirectObserver {
  const outcomes = Object.keys(REDIRECT_OUTCOMES) as RedirectOutcome[];
  const counts: Record<RedirectOutcome, number> = {
    redirected: 0, paused: 0, gone: 0, not_active: 0, expired: 0, expired_redirected: 0, method_not_allowed: 0, unavailable: 0,
  };
  new Counter({
    name: 'qroute_redirects_total',
    help: 'Short-link requests answered, by outcome and HTTP status (302 redirected, 404 paused, gone or not active yet, 410 expired, 302 expired_redirected, 405, 503 unavailable).',
    labelNames: ['outcome', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const outcome of outcomes) this.inc({ outcome, status: REDIRECT_OUTCOMES[outcome] }, counts[outcome]);
    },
  });
  const duration = new Histogram({
    name: 'qroute_redirect_duration_seconds',
    help: 'Time from a short-link request to its answer, including the wait for the scan commit (group commit).',
    labelNames: ['outcome'],
    // From a cached 404 (well under a millisecond) to a commit that hits the 2 s scan commit timeout.
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const observe = {} as Record<RedirectOutcome, ReturnType<typeof duration.labels>>;
  for (const outcome of outcomes) {
    // Every series exists from the start (zero), so rate() and alerts see a 503 series before the first 503.
    duration.zero({ outcome });
    observe[outcome] = duration.labels({ outcome });
  }
  return {
    answered(outcome, startedAt) {
      counts[outcome]++;
      observe[outcome].observe((performance.now() - startedAt) / 1000);
    },
  };
}
