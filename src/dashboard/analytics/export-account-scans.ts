import type { RequestHandler } from 'express';
import { exportScansCsv, parseScanFilters } from '../../analytics/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { csvFilename, sendCsv } from '../shared/send-csv.js';
import { staleReadsOf } from '../shared/stale-reads.js';

/** GET /analytics/scans.csv[?country=DE…] — every stored scan of the account's codes (matching the filters), streamed. */
export function exportAccountScans(_deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const session = sessionOf(res);
    const { filters } = parseScanFilters(req.query as Record<string, unknown>);
    // The export's queries run as it streams: a replica failing midway ends the download, as the primary would.
    const chunks = await staleReadsOf(res).read((db) => exportScansCsv(db, { accountId: session.user.accountId }, { filters }));
    await sendCsv(res, csvFilename(`${session.user.accountName} all codes`), chunks);
  };
}
