import type { RequestHandler } from 'express';
import { exportScansCsv } from '../../analytics/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { csvFilename, sendCsv } from '../shared/send-csv.js';

/** GET /analytics/scans.csv — every stored scan of the account's codes, streamed. */
export function exportAccountScans(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const session = sessionOf(res);
    const chunks = await exportScansCsv(deps.db, { accountId: session.user.accountId });
    await sendCsv(res, csvFilename(`${session.user.accountName} all codes`), chunks);
  };
}
