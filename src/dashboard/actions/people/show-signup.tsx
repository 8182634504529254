import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../../context.js';
import { DashboardError } from '../../errors.js';
import { planLabel } from '../../pages/account/plan-usage.js';
import { SignupPage } from '../../pages/people/signup-page.js';
import { sendPage } from '../../render.js';

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
