import type { RequestHandler } from 'express';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { Moment } from '../shared/moment.js';
import { ConfirmPage } from './confirm-page.js';
import { sendPage } from '../shared/render.js';
import { invitationOfAccount } from './person-lookup.js';

/** GET /people/invitations/:invitationId/revoke — names the invitation before its link is killed. */
export function confirmRevokeInvitation(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const session = sessionOf(res);
    const invitation = await invitationOfAccount(deps, session.user.accountId, String(req.params.invitationId));
    sendPage(
      res,
      <ConfirmPage
        context={pageContext(res)}
        title={`Revoke the invitation for ${invitation.email}?`}
        action={`/people/invitations/${invitation.id}/revoke`}
        button="Revoke"
      >
        <p>
          The link sent to {invitation.email} (valid until <Moment at={invitation.expiresAt} />) stops working. You can invite them again later.
        </p>
      </ConfirmPage>,
    );
  };
}
