import type { RequestHandler, Response } from 'express';
import { listPendingInvitations } from '../../people/invitations.js';
import { listUsers } from '../../people/users.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { PeoplePage, type PeoplePageProps } from './people-page.js';
import { sendPage } from '../shared/render.js';

/** What a redirect back here may announce: fixed sentences by key, so a link cannot put words on the page. */
const NOTICES: Record<string, string> = {
  'invitation-emailed': 'The invitation is on its way by email.',
  'reset-emailed': 'The password reset link is on its way by email. It works once, within an hour.',
  'invitation-revoked': 'The invitation is revoked: its link no longer works.',
  'role-changed': 'The role is changed. It applies from their next click.',
  'person-removed': 'The person is removed and signed out everywhere.',
};

/** Renders /people for the signed-in owner's account (also with a form's errors or a link to hand over). */
export async function renderPeople(
  deps: DashboardDependencies,
  res: Response,
  shown: Omit<PeoplePageProps, 'context' | 'users' | 'invitations' | 'mailConfigured'> = {},
  status = 200,
): Promise<void> {
  const accountId = sessionOf(res).user.accountId;
  const [users, invitations] = await Promise.all([listUsers(deps.db, accountId), listPendingInvitations(deps.db, accountId)]);
  const mailConfigured = deps.config.dashboard.smtpUrl !== undefined;
  sendPage(res, <PeoplePage context={pageContext(res)} users={users} invitations={invitations} mailConfigured={mailConfigured} {...shown} />, status);
}

/** GET /people */
export function showPeople(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const done = typeof req.query.done === 'string' ? req.query.done : '';
    await renderPeople(deps, res, { notice: Object.hasOwn(NOTICES, done) ? NOTICES[done] : undefined });
  };
}
