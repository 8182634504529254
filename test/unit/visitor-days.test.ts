import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { utcDay, VisitorDays } from '../../src/audience/visitor-days.js';
import { createDatabase, DEFAULT_DATABASE_TIMEOUTS } from '../../src/db/database.js';

describe('utcDay', () => {
  it('is the UTC date of a time, whatever the local zone', () => {
    expect(utcDay(Date.UTC(2026, 10, 27, 0, 0, 0, 0))).toBe('2026-11-27');
    expect(utcDay(Date.UTC(2026, 10, 27, 23, 59, 59, 999))).toBe('2026-11-27');
    expect(utcDay(Date.UTC(2026, 11, 31, 23, 59, 59, 999) + 1)).toBe('2027-01-01');
  });
});

describe('the day\'s visitor secret with the database down', () => {
  it('is null (the scan has no visitor), tried again after a pause rather than by every scan', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    // Nothing listens on port 1: every connection is refused at once.
    const db = createDatabase('postgres://qroute@127.0.0.1:1/qroute', { logger, timeouts: { ...DEFAULT_DATABASE_TIMEOUTS, connectMs: 2_000 } });
    let clock = Date.UTC(2026, 10, 27, 0, 0, 5);
    const days = new VisitorDays(db, logger, { now: () => clock, retryAfterMs: 5_000 });
    try {
      expect(await days.secretFor(new Date(clock))).toBeNull();
      expect(warnings).toHaveLength(1);
      // Scans meanwhile get none at once, without another attempt.
      expect(await days.secretFor(new Date(clock))).toBeNull();
      expect(warnings).toHaveLength(1);
      clock += 5_001;
      expect(await days.secretFor(new Date(clock))).toBeNull();
      expect(warnings).toHaveLength(2);
    } finally {
      days.stop();
      await db.destroy();
    }
  });
});

describe('the day\'s visitor secret while the code lookup finds the database unresponsive', () => {
  it('is null at once (no wait for the database), and fetched meanwhile', async () => {
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const db = createDatabase('postgres://qroute@127.0.0.1:1/qroute', { logger, timeouts: { ...DEFAULT_DATABASE_TIMEOUTS, connectMs: 2_000 } });
    const days = new VisitorDays(db, logger, { databaseUnresponsive: () => true });
    try {
      expect(days.secretFor(new Date())).toBeNull();
      // The fetch it started was made (and failed: nothing listens on port 1).
      await expect.poll(() => warnings.length).toBe(1);
    } finally {
      days.stop();
      await db.destroy();
    }
  });
});
