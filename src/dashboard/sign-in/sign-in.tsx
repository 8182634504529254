import type { RequestHandler } from 'express';
import { beginLoginAttempt, loginSucceeded } from '../../people/login-limit.js';
import { authenticateUser, normalizeEmail } from '../../people/users.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { sendPage } from '../shared/render.js';
import { LoginPage } from './login-page.js';
import { safeNext } from './safe-next.js';
import { startSignedInSession } from './sign-in-session.js';

/** POST /login — checks the password (failures limited per address and email), starts a session, goes on to `next`. */
export function signIn(deps: DashboardDependencies): RequestHandler {
  const signupOpen = deps.config.dashboard.signup === 'open';
  return async (req, res) => {
    const context = pageContext(res);
    const next = safeNext(formText(req.body, 'next'));
    const rawEmail = formText(req.body, 'email');
    const password = formText(req.body, 'password');
    const email = normalizeEmail(rawEmail) ?? rawEmail.trim().toLowerCase();
    const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    const again = (status: number, error: string) =>
      sendPage(res, <LoginPage context={context} next={next} signupOpen={signupOpen} email={rawEmail} error={error} />, status);

    // Counted before the password is checked, so a burst of parallel guesses cannot all pass the limit.
    const attempt = await beginLoginAttempt(deps.db, { ip, email });
    if (attempt.limited) {
      res.setHeader('Retry-After', String(attempt.retryAfterSeconds));
      again(429, `Too many failed sign-ins. Try again in ${Math.ceil(attempt.retryAfterSeconds / 60)} minutes, or reset your password.`);
      return;
    }
    const user = password ? await authenticateUser(deps.db, { email, password }) : undefined;
    if (!user) {
      again(401, 'The email or the password is wrong.');
      return;
    }
    await loginSucceeded(deps.db, { email, failureIds: attempt.failureIds });
    await startSignedInSession(deps, req, res, user.id);
    res.redirect(303, next);
  };
}
