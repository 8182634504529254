import type { RequestHandler, Response } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { AccountPage, type AccountPageProps } from './account-page.js';
import { sendPage } from '../shared/render.js';

/** What a redirect back here may announce: fixed sentences by key, so a link cannot put words on the page. */
const NOTICES: Record<string, string> = {
  'password-changed': 'Your password is changed. Every other session of yours has ended.',
};

/** Renders /account for the signed-in person (also with a form's errors, from the actions). */
export async function renderAccount(
  deps: DashboardDependencies,
  res: Response,
  shown: Omit<AccountPageProps, 'context' | 'account'> = {},
  status = 200,
): Promise<void> {
  const account = await getAccount(deps.db, sessionOf(res).user.accountId);
  sendPage(res, <AccountPage context={pageContext(res)} account={account} {...shown} />, status);
}

/** GET /account */
export function showAccount(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const done = typeof req.query.done === 'string' ? req.query.done : '';
    await renderAccount(deps, res, { notice: Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined });
  };
}
