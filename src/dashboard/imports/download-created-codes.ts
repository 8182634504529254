import type { RequestHandler } from 'express';
import { createdCodesCsv } from '../../imports/created-codes.js';
import { getImport } from '../../imports/import-rows.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { sendCsv } from '../shared/send-csv.js';

/** GET /imports/:id/codes.csv: the codes this import created, with their short URLs. */
export function downloadCreatedCodes(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const summary = await getImport(deps.db, sessionOf(res).user.accountId, req.params.id);
    await sendCsv(res, `qroute-import-${summary.createdAt.toISOString().slice(0, 10)}-codes.csv`, createdCodesCsv(deps.db, summary.id, deps.config.siteUrl));
  };
}
