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

describe('a receiver that stops answering (requests waiting past the target)', () => {
  /** A limit that climbed to the ceiling on fast answers, the last one at `lastFastAt`. */
  function atCeiling(lastFastAt = 10_000) {
    const limit = new AdaptiveLimit(OPTIONS);
    for (let i = 0; i <= 10_000; i++) limit.observe({ fast: true, latencyMs: 5, now: lastFastAt - 10_000 + i });
    expect(limit.current).toBe(64);
    return limit;
  }

  it('halves once per latency target while its requests keep waiting, reaching the floor from the ceiling in five', () => {
    const limit = atCeiling();
    const bounds: number[] = [];
    // Hung right after the last fast answer; the worker looks twice per target and finds all 64 overdue each time.
    for (let look = 2; look <= 13; look++) {
      limit.overdue({ waiting: 64, overdue: 64, now: 10_000 + look * 125 });
      bounds.push(limit.current);
    }
    expect(bounds).toEqual([32, 32, 16, 16, 8, 8, 4, 4, 2, 2, 2, 2]);
  });

  it('halves at most once per 0.8 target however often it is told', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    limit.overdue({ waiting: 8, overdue: 8, now: 1_000 });
    limit.overdue({ waiting: 8, overdue: 8, now: 1_100 });
    limit.overdue({ waiting: 8, overdue: 8, now: 1_199 });
    expect(limit.current).toBe(4);
    limit.overdue({ waiting: 8, overdue: 8, now: 1_200 });
    expect(limit.current).toBe(2);
  });

  it('stragglers are not half of the waiting requests, nor a request left at the end of a burst half of the bound', () => {
    const limit = atCeiling();
    limit.overdue({ waiting: 64, overdue: 3, now: 20_000 }); // a few stragglers among fast answers
    limit.overdue({ waiting: 1, overdue: 1, now: 21_000 }); // the burst is over; one slow request is left
    limit.overdue({ waiting: 40, overdue: 31, now: 22_000 }); // just under half of the bound
    expect(limit.current).toBe(64);
    limit.overdue({ waiting: 40, overdue: 32, now: 23_000 });
    expect(limit.current).toBe(32);
  });

  it('a receiver that answers fast again is not halved for the requests it dropped, and their timeouts halve nothing', () => {
    const limit = atCeiling(20_000);
    // Hung at 20 s: noticed, 64 → 32 → 16.
    limit.overdue({ waiting: 64, overdue: 64, now: 20_375 });
    limit.overdue({ waiting: 64, overdue: 64, now: 20_625 });
    expect(limit.current).toBe(16);
    // It answers again: new requests come back fast while the 64 dropped ones still wait for their timeout.
    for (let i = 0; i < 100; i++) limit.observe({ fast: true, latencyMs: 5, now: 21_000 + i });
    const recovered = limit.current;
    expect(recovered).toBeGreaterThan(16);
    limit.overdue({ waiting: 70, overdue: 64, now: 21_150 });
    expect(limit.current).toBe(recovered);
    limit.observe({ fast: false, latencyMs: 15_000, now: 35_000 });
    expect(limit.current).toBe(recovered);
  });
});
