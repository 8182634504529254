import type { RequestHandler } from 'express';
import { UnacceptablePasswordError, WrongPasswordError } from '../../people/errors.js';
import { beginLoginAttempt, loginSucceeded } from '../../people/login-limit.js';
import { endAllSessions } from '../../people/sessions.js';
import { changePassword } from '../../people/users.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { hasErrors, readNewPassword } from '../shared/new-password.js';
import { renderAccount } from './show-account.js';

/**
 * POST /account/password — the current password is checked under the sign-in limit (same counters), so a stolen
 * session cannot guess it faster than the sign-in form allows; on success every other session of the person ends.
 */
export function changePasswordAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const session = sessionOf(res);
    const { password, errors } = readNewPassword(req.body);
    const currentPassword = formText(req.body, 'currentPassword');
    if (!currentPassword) errors.currentPassword = 'Enter your current password.';
    if (hasErrors(errors)) {
      await renderAccount(deps, res, { errors }, 400);
      return;
    }
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const attempt = await beginLoginAttempt(deps.db, { ip, email: session.user.email });
    if (attempt.limited) {
      res.setHeader('Retry-After', String(attempt.retryAfterSeconds));
      const minutes = Math.ceil(attempt.retryAfterSeconds / 60);
      await renderAccount(deps, res, { passwordError: `Too many wrong passwords. Try again in ${minutes} minutes.` }, 429);
      return;
    }
    try {
      await changePassword(deps.db, { userId: session.user.userId, currentPassword, newPassword: password });
    } catch (error) {
      if (error instanceof WrongPasswordError) await renderAccount(deps, res, { errors: { currentPassword: error.message } }, 400);
      else if (error instanceof UnacceptablePasswordError) await renderAccount(deps, res, { errors: { password: error.message } }, 400);
      else throw error;
      return;
    }
    await loginSucceeded(deps.db, { email: session.user.email, failureIds: attempt.failureIds });
    await endAllSessions(deps.db, session.user.userId, { except: session.tokenHash });
    res.redirect(303, '/account?done=password-changed');
  };
}
