import type { RequestHandler } from 'express';
import { deleteDesignTemplate as deleteTemplate } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/** POST /designs/:id/delete: the template is gone; its codes have the default look. */
export function deleteDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    await deleteTemplate(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    res.redirect(303, '/designs?done=deleted');
  };
}
