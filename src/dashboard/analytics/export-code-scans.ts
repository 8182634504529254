import type { RequestHandler } from 'express';
import { exportScansCsv, parseScanFilters } from '../../analytics/index.js';
import { getQrCode } from '../../codes/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { csvFilename, sendCsv } from '../shared/send-csv.js';
import { staleReadsOf } from '../shared/stale-reads.js';

/**
 * GET /codes/:id/scans.csv[?country=DE…] — one code's stored scans (matching the filters), streamed; 404 (a page)
 * for another account's code.
 */
export function exportCodeScans(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const code = await getQrCode(deps.db, { accountId, id: String(req.params.id) });
    const { filters } = parseScanFilters(req.query as Record<string, unknown>);
    // The export's queries run as it streams: a replica failing midway ends the download, as the primary would.
    const chunks = await staleReadsOf(res).read((db) => exportScansCsv(db, { accountId, codeId: code.id }, { filters }));
    // Names may be all non-Latin: then the slug keeps the file name telling.
    await sendCsv(res, csvFilename(/[A-Za-z0-9]/.test(code.name) ? code.name : code.slug), chunks);
  };
}
