import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../../context.js';
import { PasswordResetRequestPage } from '../../pages/people/password-reset-request-page.js';
import { sendPage } from '../../render.js';

/** GET /password-reset */
export function showPasswordResetRequest(deps: DashboardDependencies): RequestHandler {
  const mailConfigured = deps.config.dashboard.smtpUrl !== undefined;
  return (_req, res) => {
    sendPage(res, <PasswordResetRequestPage context={pageContext(res)} mailConfigured={mailConfigured} />);
  };
}
