import type { RequestHandler, Response } from 'express';
import type { StaleReads } from '../../db/read-replicas.js';
import type { DashboardDependencies } from './context.js';
import { cookiesAreSecure, readCookies, setCookie } from './cookies.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      staleReads?: StaleReads;
    }
  }
}

/** Methods that change something: every dashboard write is a POST (forms and htmx), the rest for completeness. */
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Read-your-own-writes with read replicas: a browser that has just changed something reads from the primary until
 * every replica still in use must hold the change, so the list after "Create code" shows the new code. A replica
 * is read from only while at most READ_REPLICA_MAX_LAG_SECONDS behind (src/db/read-replicas.ts), so that long
 * (and a second for the lag probe's step) after a write is enough. The moment lives in a cookie, as every instance
 * behind a load balancer must honour it; it is not secret: whoever changes it only moves their own reads.
 */
export function readsAfterOwnWrites(deps: DashboardDependencies): RequestHandler {
  if (!deps.reads.hasReplicas) {
    return (_req, res, next) => {
      res.locals.staleReads = deps.reads;
      next();
    };
  }
  const secure = cookiesAreSecure(deps.config.siteUrl);
  const name = secure ? '__Host-qroute_wrote' : 'qroute_wrote';
  const windowMs = (deps.config.readReplicaMaxLagSeconds + 1) * 1000;
  return (req, res, next) => {
    const now = Date.now();
    if (WRITES.has(req.method)) {
      const until = now + windowMs;
      setCookie(res, name, String(until), { secure, sameSite: 'Lax', expires: new Date(until) });
      res.locals.staleReads = deps.reads.primaryOnly;
    } else {
      const until = Number(readCookies(req).get(name));
      res.locals.staleReads = Number.isFinite(until) && until > now ? deps.reads.primaryOnly : deps.reads;
    }
    next();
  };
}

/** Where this request's stale-tolerant reads go (analytics, lists, exports). */
export function staleReadsOf(res: Response): StaleReads {
  const reads = res.locals.staleReads;
  if (!reads) throw new Error('dashboard route reached without the stale-reads middleware');
  return reads;
}
