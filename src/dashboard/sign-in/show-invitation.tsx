import type { RequestHandler } from 'express';
import { InvitationInvalidError, ResetLinkInvalidError } from '../../people/errors.js';
import { findPendingInvitation } from '../../people/invitations.js';
import type { DashboardDependencies } from '../shared/context.js';
import { pageContext } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { InvitationPage } from './invitation-page.js';
import { sendPage } from '../shared/render.js';

/**
 * 410 Gone for every dead link (unknown, expired, accepted, revoked), with one sentence for all of them: the page
 * must not tell a guesser which tokens ever existed.
 */
export function invitationGone(): DashboardError {
  return new DashboardError(410, 'This invitation link no longer works', new InvitationInvalidError().message);
}

export function resetLinkGone(): DashboardError {
  return new DashboardError(410, 'This reset link no longer works', new ResetLinkInvalidError().message);
}

/** GET /invitations/:token */
export function showInvitation(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    const invitation = await findPendingInvitation(deps.db, token);
    if (!invitation) throw invitationGone();
    sendPage(res, <InvitationPage context={pageContext(res)} token={token} invitation={invitation} />);
  };
}
