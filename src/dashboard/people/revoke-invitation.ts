import type { RequestHandler } from 'express';
import { revokeInvitation } from '../../people/invitations.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { notHere } from './person-lookup.js';

/** POST /people/invitations/:invitationId/revoke — scoped to the account: another account's id is a 404. */
export function revokeInvitationAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const revoked = await revokeInvitation(deps.db, { accountId, invitationId: String(req.params.invitationId) });
    if (!revoked) throw notHere();
    res.redirect(303, '/people?done=invitation-revoked');
  };
}
