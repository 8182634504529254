import type { RequestHandler } from 'express';
import { exportScansCsv, parseScanFilters } from '../../analytics/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { csvFilename, sendCsv } from '../shared/send-csv.js';

/** GET /analytics/scans.csv[?country=DE…] — every stored scan of the account's codes (matching the filters), streamed. */
export function exportAccountScans(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const session = sessionOf(res);
    const { filters } = parseScanFilters(req.query as Record<string, unknown>);
    const chunks = await exportScansCsv(deps.db, { accountId: session.user.accountId }, { filters });
    await sendCsv(res, csvFilename(`${session.user.accountName} all codes`), chunks);
  };
}
