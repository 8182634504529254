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
    this.lastDecreaseAt = outcome.now;
    this.value = Math.max(this.options.floor, this.value / 2);
  }
}
