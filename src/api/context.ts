import type { Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { StaleReads } from '../db/read-replicas.js';
import type { Database } from '../db/schema/index.js';
import type { ApiMetrics } from '../metrics/api-metrics.js';
import type { QrImages } from '../qr/index.js';
import type { ContractValidation } from './contract-validation.js';

/** What the API parts need, passed in explicitly (no module state), so one process can run several apps. */
export interface ApiDependencies {
  config: Config;
  db: Database;
  /** Reads that may be slightly stale (read replicas when DATABASE_READ_URL is set, else the primary). */
  reads: StaleReads;
  logger: Logger;
  images: QrImages;
  /** Requests by operation and status, for GET /metrics (when served). */
  metrics?: ApiMetrics;
  /** The contract's validation, built once and shared by the apps of one process (made here when not given). */
  contractValidation?: ContractValidation;
}

export interface AuthenticatedCaller {
  accountId: string;
  keyId: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      caller?: AuthenticatedCaller;
    }
  }
}

/** The authenticated caller; the auth middleware runs before every operation, so a missing caller is a bug. */
export function callerOf(res: Response): AuthenticatedCaller {
  const caller = res.locals.caller;
  if (!caller) throw new Error('operation reached without an authenticated caller');
  return caller;
}
