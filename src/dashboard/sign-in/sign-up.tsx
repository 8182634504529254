import type { RequestHandler } from 'express';
import { EmailTakenError, InvalidAccountNameError, InvalidEmailError, UnacceptablePasswordError } from '../../people/errors.js';
import { createMailer } from '../../people/mailer.js';
import { signUp } from '../../people/signup.js';
import { requestSignup } from '../../people/signup-requests.js';
import { releaseSignupSlot, takeSignupSlot } from '../../people/signup-limit.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { planLabel } from '../shared/plan-label.js';
import type { FieldErrors } from '../shared/form-field.js';
import { SignupPage } from './signup-page.js';
import { sendPage } from '../shared/render.js';
import { startSignedInSession } from './sign-in-session.js';
import { hasErrors, readNewPassword } from '../shared/new-password.js';

/**
 * POST /signup — a new account on SIGNUP_PLAN with this person as its owner. One address sends at most
 * SIGNUPS_PER_IP sign-ups per quarter of an hour (429 with Retry-After past it).
 *
 * With a mail server nothing is made yet and the form has no password: every well-formed form is answered alike
 * ("check your email"), and the address is mailed a confirmation link (whose page asks for the password), or, when it already has a user, a notice saying how to sign in. So the
 * form does not tell strangers who uses qroute (as the password-reset form does not); each of those counts
 * against the address's limit, a taken email included, or the limit would tell the same. The mail goes after the
 * answer: waiting for the mail server on one branch only would show in the time taken.
 *
 * Without one there is no way to confirm an address, so the account is made at once and signed in, and a taken
 * email is refused (409) and does not count: the form cannot both answer alike and let the person in.
 */
export function signUpAction(deps: DashboardDependencies): RequestHandler {
  const plan = deps.config.dashboard.signupPlan;
  const mailer = createMailer(deps.config);
  return async (req, res) => {
    const values = { accountName: formText(req.body, 'accountName'), email: formText(req.body, 'email') };
    const again = (errors: FieldErrors, status = 400) =>
      sendPage(res, <SignupPage context={pageContext(res)} planName={planLabel(plan)} confirmByMail={mailer !== undefined} values={values} errors={errors} />, status);
    // With a mail server the password is chosen on the confirmation page, by whoever holds the mailed link.
    const { password, errors } = mailer ? { password: '', errors: {} } : readNewPassword(req.body);
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
    if (mailer) {
      let request;
      try {
        request = await requestSignup(deps.db, { accountName: values.accountName, email: values.email, siteUrl: deps.config.siteUrl });
      } catch (error) {
        await releaseSignupSlot(deps.db, slot.id!);
        if (error instanceof InvalidAccountNameError) again({ accountName: error.message });
        else if (error instanceof InvalidEmailError) again({ email: error.message });
        else throw error;
        return;
      }
      sendPage(res, <SignupPage context={pageContext(res)} planName={planLabel(plan)} sentTo={values.email.trim()} />);
      const log = req.log ?? deps.logger;
      void (async () => {
        if (request.kind === 'confirm') await mailer.sendSignupConfirmation({ to: request.email, url: request.url });
        else if (request.kind === 'taken') await mailer.sendSignupTakenNotice({ to: request.email, siteUrl: deps.config.siteUrl });
      })().catch((error: unknown) => log.error({ err: error }, 'sign-up mail not sent'));
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
