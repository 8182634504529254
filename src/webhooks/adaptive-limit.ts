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

/** How long a receiver's requests have been waiting, as the worker sees them at one look (see `overdue`). */
export interface WaitingRequests {
  /** Requests sent to the receiver and not answered yet (those answered and only being recorded are left out). */
  waiting: number;
  /** Those of them sent longer than the latency target ago. */
  overdue: number;
  now: number;
}

/**
 * How many deliveries one account may have in flight, adapted to its receiver (AIMD, as TCP's congestion window):
 * each fast success adds 1/limit (about one more slot per round trip), while a slow answer or a failure halves
 * it, at most once per round trip (the requests already in flight when it slowed down report the same slowness
 * and must not halve it again each). A fast receiver climbs to the ceiling in a few dozen round trips; a hung or
 * failing one falls to the floor, so it holds a few of the worker's slots, never all of them.
 *
 * A receiver that stops answering sends no news at all until its requests time out (15 s), so waiting for answers
 * would keep its bound where it was for that long, and halve it once per 15 s after. `overdue` is that news
 * early: the worker reports, twice per latency target, how many of the account's requests are waiting
 * and how many of them for longer than the target.
 */
export class AdaptiveLimit {
  private value: number;
  private lastDecreaseAt = -Infinity;
  private lastFastAt = -Infinity;

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
      this.lastFastAt = outcome.now;
      this.value = Math.min(this.options.ceiling, this.value + 1 / this.value);
      return;
    }
    // One halving per round trip: requests sent before the last halving answer after it with the same news.
    if (outcome.now - this.lastDecreaseAt < Math.max(outcome.latencyMs, 1)) return;
    this.decrease(outcome.now);
  }

  /**
   * Halves the bound when the receiver has stopped keeping up, without waiting for the answers: at least half of
   * its waiting requests, and at least half of its bound, have waited longer than the latency target, and no fast
   * answer came within the last target. So a receiver that hangs at the ceiling (64) is at the floor (2) within
   * about 1.5 s, long before its requests time out, while
   * - a straggler, or a few, among fast answers is not half of anything and changes nothing (its own slow answer
   *   halves once, as any slow answer does), nor is one left over at the end of a burst (not half of the bound);
   * - a receiver that answers again stops being halved at once, though the requests it dropped still wait for
   *   their timeout.
   * At most once per 0.8 target (the worker's looks are not exactly a target apart). The answers or timeouts of
   * requests sent before the last halving then fall within one "round trip" of it and halve nothing more.
   */
  overdue({ waiting, overdue, now }: WaitingRequests): void {
    if (overdue === 0 || overdue * 2 < Math.max(waiting, this.current)) return;
    if (now - this.lastFastAt < this.options.latencyTargetMs) return;
    if (now - this.lastDecreaseAt < 0.8 * this.options.latencyTargetMs) return;
    this.decrease(now);
  }

  private decrease(now: number): void {
    this.lastDecreaseAt = now;
    this.value = Math.max(this.options.floor, this.value / 2);
  }
}
