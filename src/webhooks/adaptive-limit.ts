/** Bounds of the per-account in-flight limit, and the latency that separates a receiver that keeps up from one that does not. */
export interface AdaptiveLimitOptions {
  /** Where every account starts, and where one goes back to after a while without deliveries. */
  initial: number;
  /** Never fewer in flight than this, however slow the receiver: it still gets its deliveries, slowly. */
  floor: number;
  /** Never more, however fast: this leaves the rest of the worker's slots to other accounts if it slows down at once. */
  ceiling: number;
  /**
   * An answered 2xx faster than this grows the limit; anything slower, and every failure, shrinks it. 250 ms is
   * well above a healthy receiver's round trip across the internet and well below the 15 s timeout that a hung
   * one costs each slot.
   */
  latencyTargetMs: number;
}

export const DEFAULT_ADAPTIVE_LIMIT: AdaptiveLimitOptions = { initial: 8, floor: 2, ceiling: 64, latencyTargetMs: 250 };

/**
 * How many deliveries one account may have in flight, adapted to its receiver (AIMD, as TCP's congestion window):
 * each fast success adds 1/limit (about one more slot per round trip), while a slow answer or a failure halves
 * it, at most once per round trip (the requests already in flight when it slowed down report the same slowness
 * and must not halve it again each). A fast receiver climbs to the ceiling in a few dozen round trips; a hung or
 * failing one falls to the floor, so it holds a few of the worker's slots, never all of them.
 *
 * A receiver that stops answering sends no news at all until its requests time out (15 s), so waiting for answers
 * would keep its bound where it was for that long, and halve it once per 15 s after. `overdue` is that news
 * early: the worker calls it while most of the account's requests in flight have waited past the latency target.
 */
export class AdaptiveLimit {
  private value: number;
  private lastDecreaseAt = -Infinity;

  constructor(private readonly options: AdaptiveLimitOptions) {
    this.value = options.initial;
  }

  /** Whole deliveries allowed in flight now. */
  get current(): number {
    return Math.floor(this.value);
  }

  /** One attempt's outcome: `fast` when the receiver answered 2xx within the latency target. */
  observe(outcome: { fast: boolean; latencyMs: number; now: number }): void {
    if (outcome.fast) {
      this.value = Math.min(this.options.ceiling, this.value + 1 / this.value);
      return;
    }
    // One halving per round trip: requests sent before the last halving answer after it with the same news.
    if (outcome.now - this.lastDecreaseAt < Math.max(outcome.latencyMs, 1)) return;
    this.decrease(outcome.now);
  }

  /**
   * Most requests in flight to this receiver have waited longer than the latency target: it is not keeping up now,
   * whatever they answer later. Halves at most once per latency target, so a receiver that hangs at the ceiling
   * (64) is at the floor (2) within about five targets (1.25 s), long before its requests time out. Their late
   * answers or timeouts then fall within one "round trip" of the last halving and halve nothing more.
   */
  overdue(now: number): void {
    if (now - this.lastDecreaseAt < this.options.latencyTargetMs) return;
    this.decrease(now);
  }

  private decrease(now: number): void {
    this.lastDecreaseAt = now;
    this.value = Math.max(this.options.floor, this.value / 2);
  }
}

/** A request in flight, as `accountsMostlyOverdue` sees it. */
export interface RequestInFlight {
  accountId: string;
  /** `performance.now()` when it was sent. */
  startedAt: number;
  /** False once the receiver answered (or the request failed) and only the attempt's record is pending. */
  awaitingReceiver: boolean;
}

/**
 * Accounts at least half of whose requests still waiting for their receiver have waited longer than the latency
 * target. Half, not one: a straggler among fast answers is not a receiver that stopped. Requests already answered
 * and waiting only for their record are left out, so a slow database never reads as slow receivers.
 */
export function accountsMostlyOverdue(requests: Iterable<RequestInFlight>, now: number, latencyTargetMs: number): string[] {
  const waiting = new Map<string, { total: number; overdue: number }>();
  for (const request of requests) {
    if (!request.awaitingReceiver) continue;
    let counts = waiting.get(request.accountId);
    if (!counts) waiting.set(request.accountId, (counts = { total: 0, overdue: 0 }));
    counts.total++;
    if (now - request.startedAt > latencyTargetMs) counts.overdue++;
  }
  return [...waiting].filter(([, { total, overdue }]) => overdue > 0 && overdue * 2 >= total).map(([accountId]) => accountId);
}
