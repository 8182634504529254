import type { RequestHandler } from 'express';
import { isCodeTypeName } from '../../codes/types/index.js';
import { MIXED_TEMPLATE_FILE, mixedTemplateCsv, templateCsv } from '../../imports/templates.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { sendCsv } from '../shared/send-csv.js';

/**
 * GET /imports/templates/:file: `all-types.csv`, every column with example rows of several types; or a type's
 * (`URL.csv`, ...): its header and one example row. Both import cleanly.
 */
export function downloadTemplate(deps: DashboardDependencies): RequestHandler<{ file: string }> {
  return async (req, res) => {
    if (req.params.file === MIXED_TEMPLATE_FILE) return sendCsv(res, 'qroute-import-all-types.csv', once(mixedTemplateCsv()));
    const type = /^([A-Z0-9_]+)\.csv$/.exec(req.params.file)?.[1];
    if (type === undefined || !isCodeTypeName(type)) throw new DashboardError(404, 'No such template', 'Choose one of the templates on the import page.');
    const csv = await templateCsv(deps.db, sessionOf(res).user.accountId, type);
    await sendCsv(res, `qroute-import-${type.toLowerCase()}.csv`, once(csv));
  };
}

async function* once(text: string): AsyncGenerator<string> {
  yield text;
}
