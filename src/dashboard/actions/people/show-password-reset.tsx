import type { RequestHandler } from 'express';
import { isPasswordResetValid } from '../../../people/password-resets.js';
import { pageContext, type DashboardDependencies } from '../../context.js';
import { PasswordResetPage } from '../../pages/people/password-reset-page.js';
import { sendPage } from '../../render.js';
import { resetLinkGone } from './show-invitation.js';

/** GET /password-reset/:token */
export function showPasswordReset(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    if (!(await isPasswordResetValid(deps.db, token))) throw resetLinkGone();
    sendPage(res, <PasswordResetPage context={pageContext(res)} token={token} />);
  };
}
