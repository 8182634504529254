import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { sendPage } from '../shared/render.js';
import { LoginPage } from './login-page.js';
import { safeNext } from './safe-next.js';

/** GET / — the code list for a signed-in person, else the sign-in page. */
export function showHome(): RequestHandler {
  return (_req, res) => {
    res.redirect(303, pageContext(res).session ? '/codes' : '/login');
  };
}

/** GET /login — the sign-in form, or straight on to `next` for someone already signed in. */
export function showSignIn(deps: DashboardDependencies): RequestHandler {
  const signupOpen = deps.config.dashboard.signup === 'open';
  return (req, res) => {
    const context = pageContext(res);
    const next = safeNext(req.query.next);
    if (context.session) {
      res.redirect(303, next);
      return;
    }
    sendPage(res, <LoginPage context={context} next={next} signupOpen={signupOpen} />);
  };
}
