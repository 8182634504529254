/**
 * The per-account limit on QR image reads, per instance. Images are the one read that costs real CPU, so an
 * account looping on them is held to `limit` per `windowMs` on each instance (kept in memory: checking it costs
 * no database round trip, and the render pool bounds what all accounts together can take anyway).
 *
 * A sliding window, approximated from two fixed windows (the current count plus the previous one weighted by how
 * much of it still overlaps the last `windowMs`): exact enough for a limit, and two numbers per active account.
 */
export interface ReadSlot {
  allowed: boolean;
  remaining: number;
  /** Milliseconds until one more read is allowed (when refused), or until the current window ends. */
  resetMs: number;
}

export class ImageReadLimiter {
  private windowStart = 0;
  private current = new Map<string, number>();
  private previous = new Map<string, number>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(accountId: string): ReadSlot {
    const now = this.now();
    this.roll(now);
    const elapsed = now - this.windowStart;
    const overlap = 1 - elapsed / this.windowMs;
    const used = (this.previous.get(accountId) ?? 0) * overlap + (this.current.get(accountId) ?? 0);
    const untilWindowEnds = this.windowMs - elapsed;
    if (used + 1 > this.limit) {
      // The estimate falls by previous/windowMs per millisecond as the previous window slides out.
      const previous = this.previous.get(accountId) ?? 0;
      const waitMs = previous > 0 ? Math.ceil(((used + 1 - this.limit) / previous) * this.windowMs) : untilWindowEnds;
      return { allowed: false, remaining: 0, resetMs: Math.max(1, Math.min(waitMs, untilWindowEnds)) };
    }
    this.current.set(accountId, (this.current.get(accountId) ?? 0) + 1);
    return { allowed: true, remaining: Math.max(0, Math.floor(this.limit - used - 1)), resetMs: untilWindowEnds };
  }

  private roll(now: number): void {
    if (now - this.windowStart < this.windowMs) return;
    const windowsPassed = Math.floor((now - this.windowStart) / this.windowMs);
    this.previous = windowsPassed === 1 ? this.current : new Map();
    this.current = new Map();
    this.windowStart += windowsPassed * this.windowMs;
  }
}
