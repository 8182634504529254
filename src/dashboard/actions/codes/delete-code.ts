import type { RequestHandler } from 'express';
import { deleteQrCode } from '../../../codes/index.js';
import { sessionOf, type DashboardDependencies } from '../../context.js';

/** POST /codes/:id/delete (from the confirmation page): the code and its short URL are gone for good. */
export function deleteCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    await deleteQrCode(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    res.redirect(303, '/codes?deleted=1');
  };
}
