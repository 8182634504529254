import type { RequestHandler } from 'express';
import { exportCodesCsv } from '../../imports/export-codes.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { sendCsv } from '../shared/send-csv.js';

/** GET /imports/export.csv: every live code in the import's format, streamed. */
export function exportCodes(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    await sendCsv(res, `qroute-codes-${new Date().toISOString().slice(0, 10)}.csv`, exportCodesCsv(deps.db, accountId));
  };
}
