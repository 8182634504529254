import type { RequestHandler } from 'express';
import { updateQrCode } from '../../codes/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/** POST /codes/:id/pause and /codes/:id/resume: the API's `active` flag; a paused code's scans get a 404 page. */
export function setCodeActive(deps: DashboardDependencies, active: boolean): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { user } = sessionOf(res);
    await updateQrCode(deps.db, {
      accountId: user.accountId,
      id: req.params.id,
      changes: { active },
      actor: { kind: 'user', userId: user.userId },
    });
    res.redirect(303, `/codes/${encodeURIComponent(req.params.id)}?done=${active ? 'resumed' : 'paused'}`);
  };
}
