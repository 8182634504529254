import type { RequestHandler } from 'express';
import { deleteCodeAndFiles } from '../../codes/delete-code-and-files.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/**
 * POST /codes/:id/delete (from the confirmation page): the code and its short URL are gone for good, and so are
 * the files it showed that no other code shows (the confirmation says so).
 */
export function deleteCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    await deleteCodeAndFiles(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    res.redirect(303, '/codes?deleted=1');
  };
}
