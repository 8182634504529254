import type { RequestHandler } from 'express';
import { isCodeTypeName } from '../../codes/types/index.js';
import { templateCsv } from '../../imports/templates.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { sendCsv } from '../shared/send-csv.js';

/** GET /imports/templates/:file (`URL.csv`, ...): a type's header and one example row that imports cleanly. */
export function downloadTemplate(deps: DashboardDependencies): RequestHandler<{ file: string }> {
  return async (req, res) => {
    const type = /^([A-Z0-9_]+)\.csv$/.exec(req.params.file)?.[1];
    if (type === undefined || !isCodeTypeName(type)) throw new DashboardError(404, 'No such template', 'Choose one of the templates on the import page.');
    const csv = await templateCsv(deps.db, sessionOf(res).user.accountId, type);
    await sendCsv(res, `qroute-import-${type.toLowerCase()}.csv`, (async function* () {
      yield csv;
    })());
  };
}
