import type { RequestHandler } from 'express';
import { eraseAccount } from '../../accounts/account-erasure.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { signOut } from '../shared/middleware.js';
import { sendPage } from '../shared/render.js';
import { AccountErasedPage, DeleteAccountPage } from './delete-account-page.js';

/** GET /account/delete (owners) — what goes, and the name to type. */
export function confirmDeleteAccount(): RequestHandler {
  return (_req, res) => {
    sendPage(res, <DeleteAccountPage context={pageContext(res)} accountName={sessionOf(res).user.accountName} />);
  };
}

/**
 * POST /account/delete (owners) — erases the account when the typed name is the account's (exactly, apart from
 * spaces around it). The person's session went with the account; the cookie is cleared, and the page says so.
 */
export function deleteAccountAction(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const typed = formText(req.body, 'accountName');
    if (typed.trim() !== user.accountName) {
      const error = typed.trim() === '' ? "Type the account's name to delete it." : `That is not the account's name: type ${user.accountName} exactly.`;
      sendPage(res, <DeleteAccountPage context={pageContext(res)} accountName={user.accountName} typed={typed} error={error} />, 400);
      return;
    }
    await eraseAccount(deps.db, user.accountId);
    // Its sessions are gone with it; this clears the cookie, and the page is drawn for someone signed out.
    await signOut(deps, undefined, res);
    res.locals.dashboard = { ...pageContext(res), session: undefined };
    sendPage(res, <AccountErasedPage context={pageContext(res)} accountName={user.accountName} />);
  };
}
