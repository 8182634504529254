const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delays before each retry (ARCHITECTURE.md): about 5 s, 5 m, 30 m, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h.
 * With the first attempt that makes 10 attempts over about 3 days and 4 hours, then the delivery is `failed`.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  5 * SECOND,
  5 * MINUTE,
  30 * MINUTE,
  2 * HOUR,
  5 * HOUR,
  10 * HOUR,
  14 * HOUR,
  20 * HOUR,
  24 * HOUR,
];

/** Longest `Retry-After` honoured; a receiver asking for more is retried after this. */
export const MAX_RETRY_AFTER_MS = 24 * HOUR;

/** ±10 %, so the retries of many deliveries that failed together do not all land in the same second. */
export function defaultJitter(delayMs: number): number {
  return Math.round(delayMs * (0.9 + Math.random() * 0.2));
}

export interface RetryPolicy {
  delaysMs: readonly number[];
  jitter: (delayMs: number) => number;
}

/**
 * When to try again after failed attempt number `attempt` (1-based), or `undefined` when that was the last.
 * A `Retry-After` the receiver sent (429/503) replaces the scheduled delay, within [1 s, 24 h].
 */
export function nextRetryDelay(policy: RetryPolicy, attempt: number, retryAfterMs?: number): number | undefined {
  if (attempt > policy.delaysMs.length) return undefined;
  if (retryAfterMs !== undefined) return Math.min(Math.max(retryAfterMs, SECOND), MAX_RETRY_AFTER_MS);
  return policy.jitter(policy.delaysMs[attempt - 1]!);
}

/** `Retry-After` as delta-seconds or an HTTP date, in milliseconds from `now`; undefined when unreadable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * SECOND;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
