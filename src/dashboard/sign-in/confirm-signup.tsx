import type { RequestHandler } from 'express';
import { EmailTakenError, InvalidAccountNameError, SignupLinkInvalidError, UnacceptablePasswordError } from '../../people/errors.js';
import { confirmSignup, findSignupRequest } from '../../people/signup-requests.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { formText } from '../shared/forms.js';
import type { FieldErrors } from '../shared/form-field.js';
import { SignupConfirmPage } from './signup-page.js';
import { sendPage } from '../shared/render.js';
import { startSignedInSession } from './sign-in-session.js';
import { hasErrors, readNewPassword } from '../shared/new-password.js';

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

/**
 * POST /signup/confirm/:token — the account, named as this page's field says, and its owner with the password chosen
 * here; signed in on the code list.
 */
export function confirmSignupAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    const accountName = formText(req.body, 'accountName');
    const { password, errors } = readNewPassword(req.body);
    const again = async (status: number, shown: { errors?: FieldErrors; error?: string }) => {
      const request = await findSignupRequest(deps.db, token);
      if (!request) throw signupLinkGone();
      sendPage(res, <SignupConfirmPage context={pageContext(res)} token={token} accountName={accountName} email={request.email} {...shown} />, status);
    };
    if (hasErrors(errors)) {
      await again(400, { errors });
      return;
    }
    let userId: string;
    try {
      userId = (await confirmSignup(deps.db, { token, accountName, password, plan: deps.config.dashboard.signupPlan })).user.id;
    } catch (error) {
      if (error instanceof SignupLinkInvalidError) throw signupLinkGone();
      // The address got a user since the mail was sent (an invitation accepted): it is that person's own mailbox.
      if (error instanceof EmailTakenError) throw new DashboardError(409, 'This email already has an account', `${error.message} Sign in with it.`);
      if (error instanceof InvalidAccountNameError) await again(400, { errors: { accountName: error.message } });
      else if (error instanceof UnacceptablePasswordError) await again(400, { errors: { password: error.message } });
      else throw error;
      return;
    }
    await startSignedInSession(deps, req, res, userId);
    res.redirect(303, '/codes');
  };
}
