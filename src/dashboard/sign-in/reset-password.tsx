import type { RequestHandler } from 'express';
import { ResetLinkInvalidError, UnacceptablePasswordError } from '../../people/errors.js';
import { resetPassword } from '../../people/password-resets.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { PasswordResetPage } from './password-reset-page.js';
import { sendPage } from '../shared/render.js';
import { startSignedInSession } from './sign-in-session.js';
import { hasErrors, readNewPassword } from '../shared/new-password.js';
import { resetLinkGone } from './show-invitation.js';

/** POST /password-reset/:token — the service ends every session of the person; this browser then gets a new one. */
export function resetPasswordAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    const { password, errors } = readNewPassword(req.body);
    if (hasErrors(errors)) {
      sendPage(res, <PasswordResetPage context={pageContext(res)} token={token} errors={errors} />, 400);
      return;
    }
    try {
      const user = await resetPassword(deps.db, { token, newPassword: password });
      await startSignedInSession(deps, req, res, user.id);
      res.redirect(303, '/codes');
    } catch (error) {
      if (error instanceof ResetLinkInvalidError) throw resetLinkGone();
      if (!(error instanceof UnacceptablePasswordError)) throw error;
      sendPage(res, <PasswordResetPage context={pageContext(res)} token={token} errors={{ password: error.message }} />, 400);
    }
  };
}
