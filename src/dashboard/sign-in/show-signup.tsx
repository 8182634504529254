import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { planLabel } from '../shared/plan-label.js';
import { SignupPage } from './signup-page.js';
import { sendPage } from '../shared/render.js';

/** Sign-up is off unless the operator opened it (SIGNUP=open): then the page does not exist at all. */
export function requireSignupOpen(deps: DashboardDependencies): RequestHandler {
  return (_req, _res, next) => {
    if (deps.config.dashboard.signup !== 'open') throw new DashboardError(404, 'Page not found', 'There is nothing here, or it belongs to another account.');
    next();
  };
}

/** GET /signup */
export function showSignup(deps: DashboardDependencies): RequestHandler {
  return (_req, res) => {
    // With a mail server the password is chosen on the mailed link's page, not here (signUpAction says why).
    const confirmByMail = deps.config.dashboard.smtpUrl !== undefined;
    sendPage(res, <SignupPage context={pageContext(res)} planName={planLabel(deps.config.dashboard.signupPlan)} confirmByMail={confirmByMail} />);
  };
}
