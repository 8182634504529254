import type { RequestHandler } from 'express';
import { cancelImport, confirmImport } from '../../imports/confirm-import.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/** POST /imports/:id/confirm: hands the checked rows to the background job, then shows the progress. */
export function confirmImportAction(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const result = await confirmImport(deps.db, accountId, req.params.id);
    res.redirect(303, `/imports/${req.params.id}${result.ok ? '' : '?refused=limit'}`);
  };
}

/** POST /imports/:id/cancel: a checked import nobody wants. */
export function cancelImportAction(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    await cancelImport(deps.db, accountId, req.params.id);
    res.redirect(303, '/imports');
  };
}
