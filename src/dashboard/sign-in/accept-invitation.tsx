import type { RequestHandler } from 'express';
import { EmailTakenError, InvitationInvalidError, UnacceptablePasswordError } from '../../people/errors.js';
import { acceptInvitation, findPendingInvitation } from '../../people/invitations.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { InvitationPage } from './invitation-page.js';
import { sendPage } from '../shared/render.js';
import { startSignedInSession } from './sign-in-session.js';
import { hasErrors, readNewPassword } from '../shared/new-password.js';
import { invitationGone } from './show-invitation.js';

/** POST /invitations/:token — chooses the password, creates the person, signs them in on the code list. */
export function acceptInvitationAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    const { password, errors } = readNewPassword(req.body);
    const again = async (status: number, shown: { errors?: typeof errors; error?: string }) => {
      const invitation = await findPendingInvitation(deps.db, token);
      if (!invitation) throw invitationGone();
      sendPage(res, <InvitationPage context={pageContext(res)} token={token} invitation={invitation} {...shown} />, status);
    };
    if (hasErrors(errors)) {
      await again(400, { errors });
      return;
    }
    try {
      const user = await acceptInvitation(deps.db, { token, password });
      await startSignedInSession(deps, req, res, user.id);
      res.redirect(303, '/codes');
    } catch (error) {
      if (error instanceof InvitationInvalidError) throw invitationGone();
      if (error instanceof UnacceptablePasswordError) await again(400, { errors: { password: error.message } });
      // The email got an account of its own since the invitation was made: this link can never work.
      else if (error instanceof EmailTakenError) await again(409, { error: `${error.message} Sign in with it, or ask for an invitation to another email.` });
      else throw error;
    }
  };
}
