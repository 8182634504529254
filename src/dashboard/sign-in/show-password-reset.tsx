import type { RequestHandler } from 'express';
import { isPasswordResetValid } from '../../people/password-resets.js';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { PasswordResetPage } from './password-reset-page.js';
import { sendPage } from '../shared/render.js';
import { resetLinkGone } from './show-invitation.js';

/** GET /password-reset/:token */
export function showPasswordReset(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const token = String(req.params.token);
    if (!(await isPasswordResetValid(deps.db, token))) throw resetLinkGone();
    sendPage(res, <PasswordResetPage context={pageContext(res)} token={token} />);
  };
}
