import type { RequestHandler } from 'express';
import { EmailTakenError, SignupLinkInvalidError } from '../../../people/errors.js';
import { confirmSignup, findSignupRequest } from '../../../people/signup-requests.js';
import { pageContext, type DashboardDependencies } from '../../context.js';
import { DashboardError } from '../../errors.js';
import { SignupConfirmPage } from '../../pages/people/signup-page.js';
import { sendPage } from '../../render.js';
import { startSignedInSession } from '../../sign-in-session.js';

/** 410 Gone for every dead link (unknown, expired, used), one sentence for all. */
function signupLinkGone(): DashboardError {
  return new DashboardError(410, 'This confirmation link no longer works', new SignupLinkInvalidError().message);
}

/** GET /signup/confirm/:token */
export function showSignupConfirmation(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    const request = await findSignupRequest(deps.db, token);
    if (!request) throw signupLinkGone();
    sendPage(res, <SignupConfirmPage context={pageContext(res)} token={token} accountName={request.accountName} email={request.email} />);
  };
}

/** POST /signup/confirm/:token — the account and its owner, signed in on the code list. */
export function confirmSignupAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    let userId: string;
    try {
      userId = (await confirmSignup(deps.db, { token, plan: deps.config.dashboard.signupPlan })).user.id;
    } catch (error) {
      if (error instanceof SignupLinkInvalidError) throw signupLinkGone();
      // The address got a user since the mail was sent (an invitation accepted): it is that person's own mailbox.
      if (error instanceof EmailTakenError) throw new DashboardError(409, 'This email already has an account', `${error.message} Sign in with it.`);
      throw error;
    }
    await startSignedInSession(deps, req, res, userId);
    res.redirect(303, '/codes');
  };
}
