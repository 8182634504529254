import { describe, expect, it } from 'vitest';
import { AdaptiveLimit } from '../../src/webhooks/adaptive-limit.js';

const OPTIONS = { initial: 8, floor: 2, ceiling: 64, latencyTargetMs: 250 };

describe('the adaptive per-account bound (AIMD on latency)', () => {
  it('starts at the initial bound', () => {
    expect(new AdaptiveLimit(OPTIONS).current).toBe(8);
  });

  it('grows by about one per round trip of fast answers, up to the ceiling and no further', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    // About one round trip's worth of answers (each adds 1/bound, and the bound grows on the way).
    for (let i = 0; i < 9; i++) limit.observe({ fast: true, latencyMs: 5, now: i });
    expect(limit.current).toBe(9);
    for (let i = 0; i < 10_000; i++) limit.observe({ fast: true, latencyMs: 5, now: i });
    expect(limit.current).toBe(64);
  });

  it('halves on a slow answer or a failure, once per round trip, down to the floor and no further', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    limit.observe({ fast: false, latencyMs: 400, now: 1_000 });
    expect(limit.current).toBe(4);
    // Answers to requests sent before that halving (they took 400 ms) bring the same news: no second halving.
    limit.observe({ fast: false, latencyMs: 400, now: 1_100 });
    limit.observe({ fast: false, latencyMs: 400, now: 1_399 });
    expect(limit.current).toBe(4);
    limit.observe({ fast: false, latencyMs: 400, now: 1_401 });
    expect(limit.current).toBe(2);
    limit.observe({ fast: false, latencyMs: 15_000, now: 100_000 });
    expect(limit.current).toBe(2);
  });
});
