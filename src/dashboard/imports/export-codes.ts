import type { RequestHandler } from 'express';
import { exportCodesCsv } from '../../imports/export-codes.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { sendCsv } from '../shared/send-csv.js';
import { staleReadsOf } from '../shared/stale-reads.js';

/** GET /imports/export.csv: every live code in the import's format, streamed. */
export function exportCodes(_deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    // Its queries run as it streams: a replica failing midway ends the download, as the primary would.
    const rows = await staleReadsOf(res).read(async (db) => exportCodesCsv(db, accountId));
    await sendCsv(res, `qroute-codes-${new Date().toISOString().slice(0, 10)}.csv`, rows);
  };
}
