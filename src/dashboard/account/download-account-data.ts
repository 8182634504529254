import type { RequestHandler } from 'express';
import { exportAccount } from '../../accounts/account-export.js';
import { ZipOutputClosedError } from '../../accounts/zip-writer.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { accountGate } from '../imports/account-gate.js';

/**
 * Exports at once: one per account (a second click while the first streams is a mistake, not a need) and two per
 * instance, like the images ZIPs: each reads every row of an account and keeps a connection busy while it streams.
 */
const EXPORTS_PER_ACCOUNT = 1;
const EXPORTS_PER_INSTANCE = 2;

/**
 * GET /account/data.zip (owners): everything the account holds, streamed as it is read (src/accounts/account-export.ts),
 * so memory holds a page of rows, never the ZIP. A failure after the first bytes cuts the download off, so a
 * browser reports it failed rather than saving a ZIP that looks whole.
 */
export function downloadAccountData(deps: DashboardDependencies): RequestHandler {
  const gate = accountGate(
    { perAccount: EXPORTS_PER_ACCOUNT, perInstance: EXPORTS_PER_INSTANCE },
    { busyAccount: 'A download of all data is already running', busyInstance: 'Other downloads of all data are running' },
  );
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    await gate(res, accountId, async () => {
      res.status(200);
      res.setHeader('Content-Type', 'application/zip');
      res.setHeader('Content-Disposition', `attachment; filename="qroute-account-${new Date().toISOString().slice(0, 10)}.zip"`);
      res.setHeader('Cache-Control', 'no-store');
      try {
        await exportAccount(deps.db, accountId, res, { siteUrl: deps.config.siteUrl });
      } catch (error) {
        // The person closed the download: nothing went wrong here.
        if (error instanceof ZipOutputClosedError) return;
        // Failed before the first byte: the error page must not be saved as a .zip.
        if (!res.headersSent) for (const header of ['Content-Type', 'Content-Disposition', 'Cache-Control']) res.removeHeader(header);
        throw error;
      }
    });
  };
}
