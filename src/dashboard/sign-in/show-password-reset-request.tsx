import type { RequestHandler } from 'express';
import { pageContext, type DashboardDependencies } from '../shared/context.js';
import { PasswordResetRequestPage } from './password-reset-request-page.js';
import { sendPage } from '../shared/render.js';

/** GET /password-reset */
export function showPasswordResetRequest(deps: DashboardDependencies): RequestHandler {
  const mailConfigured = deps.config.dashboard.smtpUrl !== undefined;
  return (_req, res) => {
    sendPage(res, <PasswordResetRequestPage context={pageContext(res)} mailConfigured={mailConfigured} />);
  };
}
