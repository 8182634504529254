import { DashboardError } from '../shared/errors.js';
import type { Response } from 'express';

/**
 * At most `perAccount` of one kind of heavy request per account at once, and `perInstance` in all: one account's
 * imports or ZIPs must not take the CPU, disk and render queue everyone else's pages need. Per app: the handler that
 * makes one is made once per app.
 */
export function accountGate(limits: { perAccount: number; perInstance: number }, words: { busyAccount: string; busyInstance: string }) {
  const running = new Map<string, number>();
  let total = 0;
  return async function within<T>(res: Response, accountId: string, work: () => Promise<T>): Promise<T> {
    if ((running.get(accountId) ?? 0) >= limits.perAccount) {
      res.setHeader('Retry-After', '30');
      throw new DashboardError(429, words.busyAccount, 'Wait for it to finish, then try again.');
    }
    if (total >= limits.perInstance) {
      res.setHeader('Retry-After', '30');
      throw new DashboardError(503, words.busyInstance, 'Try again in a minute.');
    }
    running.set(accountId, (running.get(accountId) ?? 0) + 1);
    total += 1;
    try {
      return await work();
    } finally {
      total -= 1;
      const left = (running.get(accountId) ?? 1) - 1;
      if (left === 0) running.delete(accountId);
      else running.set(accountId, left);
    }
  };
}
