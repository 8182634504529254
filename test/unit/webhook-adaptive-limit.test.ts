import { describe, expect, it } from 'vitest';
import { accountsMostlyOverdue, AdaptiveLimit } from '../../src/webhooks/adaptive-limit.js';

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

describe('a receiver that stops answering (overdue requests in flight)', () => {
  it('halves once per latency target while it is overdue, reaching the floor from the ceiling in five targets', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    for (let i = 0; i < 10_000; i++) limit.observe({ fast: true, latencyMs: 5, now: i });
    expect(limit.current).toBe(64);
    const hungAt = 20_000;
    const bounds: number[] = [];
    // The worker looks every latency target (250 ms); the requests keep waiting, so every look finds them overdue.
    for (let look = 1; look <= 6; look++) {
      limit.overdue(hungAt + look * 250);
      bounds.push(limit.current);
    }
    expect(bounds).toEqual([32, 16, 8, 4, 2, 2]);
  });

  it('halves at most once per latency target however often it is told', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    limit.overdue(1_000);
    limit.overdue(1_100);
    limit.overdue(1_249);
    expect(limit.current).toBe(4);
    limit.overdue(1_250);
    expect(limit.current).toBe(2);
  });

  it('the timeouts of requests sent before the halving bring no second halving', () => {
    const limit = new AdaptiveLimit(OPTIONS);
    for (let i = 0; i < 10_000; i++) limit.observe({ fast: true, latencyMs: 5, now: i });
    // Hung at 20 s; overdue from 20.25 s on; brought down to 16 by 20.5 s, then the receiver answers again
    // and the bound is back on its way up before the old requests time out at 35 s.
    limit.overdue(20_250);
    limit.overdue(20_500);
    expect(limit.current).toBe(16);
    for (let i = 0; i < 100; i++) limit.observe({ fast: true, latencyMs: 5, now: 21_000 + i });
    const recovered = limit.current;
    expect(recovered).toBeGreaterThan(16);
    limit.observe({ fast: false, latencyMs: 15_000, now: 35_000 });
    expect(limit.current).toBe(recovered);
  });
});

describe('which receivers count as stopped (accountsMostlyOverdue)', () => {
  const sent = (accountId: string, startedAt: number, awaitingReceiver = true) => ({ accountId, startedAt, awaitingReceiver });

  it('an account with at least half of its waiting requests past the target; not one with a single straggler', () => {
    const now = 10_000;
    const requests = [
      // a: 1 straggler among 10
      sent('a', now - 600), ...Array.from({ length: 9 }, () => sent('a', now - 10)),
      // b: 5 of 10 past the target
      ...Array.from({ length: 5 }, () => sent('b', now - 300)), ...Array.from({ length: 5 }, () => sent('b', now - 10)),
      // c: its only request, past the target
      sent('c', now - 251),
      // d: exactly at the target is not past it
      sent('d', now - 250),
    ];
    expect(accountsMostlyOverdue(requests, now, 250).sort()).toEqual(['b', 'c']);
  });

  it('requests already answered and only being recorded are not counted', () => {
    const now = 10_000;
    // The receiver answered all three long ago; the database is slow to record them.
    const requests = [sent('a', now - 5_000, false), sent('a', now - 5_000, false), sent('a', now - 5_000, false), sent('a', now - 10)];
    expect(accountsMostlyOverdue(requests, now, 250)).toEqual([]);
  });
});
