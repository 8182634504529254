import type { RequestHandler } from 'express';
import { EmailTakenError, InvalidAccountNameError, InvalidEmailError, UnacceptablePasswordError } from '../../../people/errors.js';
import { signUp } from '../../../people/signup.js';
import { releaseSignupSlot, takeSignupSlot } from '../../../people/signup-limit.js';
import { pageContext, type DashboardDependencies } from '../../context.js';
import { formText } from '../../forms.js';
import { planLabel } from '../../pages/account/plan-usage.js';
import type { FieldErrors } from '../../pages/people/form-field.js';
import { SignupPage } from '../../pages/people/signup-page.js';
import { sendPage } from '../../render.js';
import { startSignedInSession } from '../../sign-in-session.js';
import { hasErrors, readNewPassword } from './new-password.js';

/**
 * POST /signup — a new account on SIGNUP_PLAN with this person as its owner, signed in on the code list. One
 * address opens at most SIGNUPS_PER_IP accounts per quarter of an hour (429 with Retry-After past it); a sign-up
 * that fails (a taken email, a bad name) does not count.
 */
export function signUpAction(deps: DashboardDependencies): RequestHandler {
  const plan = deps.config.dashboard.signupPlan;
  return async (req, res) => {
    const values = { accountName: formText(req.body, 'accountName'), email: formText(req.body, 'email') };
    const again = (errors: FieldErrors, status = 400) =>
      sendPage(res, <SignupPage context={pageContext(res)} planName={planLabel(plan)} values={values} errors={errors} />, status);
    const { password, errors } = readNewPassword(req.body);
    if (hasErrors(errors)) {
      again(errors);
      return;
    }
    const slot = await takeSignupSlot(deps.db, req.ip ?? req.socket.remoteAddress ?? 'unknown');
    if (slot.limited) {
      res.setHeader('Retry-After', String(slot.retryAfterSeconds));
      again({ form: `Too many new accounts from your network. Try again in ${Math.ceil(slot.retryAfterSeconds / 60)} minutes.` }, 429);
      return;
    }
    let userId: string;
    try {
      userId = (await signUp(deps.db, { accountName: values.accountName, email: values.email, password, plan })).user.id;
    } catch (error) {
      await releaseSignupSlot(deps.db, slot.id!);
      if (error instanceof InvalidAccountNameError) again({ accountName: error.message });
      else if (error instanceof InvalidEmailError) again({ email: error.message });
      else if (error instanceof EmailTakenError) again({ email: `${error.message} Sign in instead, or use another email.` }, 409);
      else if (error instanceof UnacceptablePasswordError) again({ password: error.message });
      else throw error;
      return;
    }
    await startSignedInSession(deps, req, res, userId);
    res.redirect(303, '/codes');
  };
}
