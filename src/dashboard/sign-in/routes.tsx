import { Router } from 'express';
import { beginLoginAttempt, loginSucceeded } from '../../people/login-limit.js';
import { authenticateUser, normalizeEmail } from '../../people/users.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { signOut } from '../shared/middleware.js';
import { LoginPage } from './login-page.js';
import { sendPage } from '../shared/render.js';
import { startSignedInSession } from './sign-in-session.js';

/** Sign in and sign out. */
export function authRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  const signupOpen = deps.config.dashboard.signup === 'open';

  router.get('/', (_req, res) => {
    res.redirect(303, pageContext(res).session ? '/codes' : '/login');
  });

  router.get('/login', (req, res) => {
    const context = pageContext(res);
    const next = safeNext(req.query.next);
    if (context.session) {
      res.redirect(303, next);
      return;
    }
    sendPage(res, <LoginPage context={context} next={next} signupOpen={signupOpen} />);
  });

  router.post('/login', async (req, res) => {
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
  });

  router.post('/logout', async (_req, res) => {
    await signOut(deps, pageContext(res).session, res);
    res.redirect(303, '/login');
  });
  return router;
}

/** Where to go after sign-in: a path on this site only (never `//elsewhere` or a full URL), else the code list. */
export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\') || raw.length > 2000) return '/codes';
  if (raw === '/' || raw.startsWith('/login')) return '/codes';
  return raw;
}
