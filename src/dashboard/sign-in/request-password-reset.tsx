import type { RequestHandler } from 'express';
import { createMailer } from '../../people/mailer.js';
import { createPasswordReset, PASSWORD_RESET_MAIL_INTERVAL_MS } from '../../people/password-resets.js';
import { normalizeEmail } from '../../people/users.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { PasswordResetRequestPage } from './password-reset-request-page.js';
import { sendPage } from '../shared/render.js';

/**
 * POST /password-reset — answers at once and the same for every well-formed email. The link is made and mailed
 * after the answer is sent: waiting for the database and the mail server only when the email has an account would
 * tell a stranger, by the time taken, who has one. A mail that fails is logged (nobody is waiting for it). One
 * person gets at most one mail per PASSWORD_RESET_MAIL_INTERVAL_MS from this form, however often it is sent.
 */
export function requestPasswordReset(deps: DashboardDependencies): RequestHandler {
  const mailer = createMailer(deps.config);
  return (req, res) => {
    const context = pageContext(res);
    const raw = formText(req.body, 'email');
    if (!mailer) {
      sendPage(res, <PasswordResetRequestPage context={context} mailConfigured={false} />);
      return;
    }
    const email = normalizeEmail(raw);
    if (email === undefined) {
      const error = 'Enter an email address like name@example.com.';
      sendPage(res, <PasswordResetRequestPage context={context} mailConfigured email={raw} error={error} />, 400);
      return;
    }
    sendPage(res, <PasswordResetRequestPage context={context} mailConfigured sent />);
    const log = req.log ?? deps.logger;
    void (async () => {
      const reset = await createPasswordReset(deps.db, { email, siteUrl: deps.config.siteUrl, unlessLinkNewerThanMs: PASSWORD_RESET_MAIL_INTERVAL_MS });
      if (reset) await mailer.sendPasswordReset({ to: reset.user.email, url: reset.url });
    })().catch((error: unknown) => log.error({ err: error }, 'password reset link not sent'));
  };
}
