import type { RequestHandler } from 'express';
import { getAccount } from '../../../accounts/account-service.js';
import { EmailTakenError, InvalidEmailError } from '../../../people/errors.js';
import { createInvitation } from '../../../people/invitations.js';
import { createMailer, MailError } from '../../../people/mailer.js';
import { isUserRole } from '../../../people/users.js';
import { sessionOf, type DashboardDependencies } from '../../context.js';
import { formText } from '../../forms.js';
import { renderPeople } from './show-people.js';

/**
 * POST /people/invitations — with a mail server the link is mailed (then back to the list); without one, or when
 * the server refuses the mail, the page shows the one-time link to the owner at once (it exists nowhere else).
 */
export function invitePerson(deps: DashboardDependencies): RequestHandler {
  const mailer = createMailer(deps.config);
  return async (req, res) => {
    const inviter = sessionOf(res).user;
    const values = { email: formText(req.body, 'email'), role: formText(req.body, 'role') };
    const role = isUserRole(values.role) ? values.role : 'member';
    let invitation;
    try {
      invitation = await createInvitation(deps.db, {
        accountId: inviter.accountId,
        email: values.email,
        role,
        invitedByUserId: inviter.userId,
        siteUrl: deps.config.siteUrl,
      });
    } catch (error) {
      if (!(error instanceof InvalidEmailError || error instanceof EmailTakenError)) throw error;
      await renderPeople(deps, res, { invite: { values, errors: { email: error.message } } }, error instanceof EmailTakenError ? 409 : 400);
      return;
    }
    const shownLink = { kind: 'invitation' as const, email: invitation.email, url: invitation.url, expiresAt: invitation.expiresAt };
    if (!mailer) {
      await renderPeople(deps, res, { shownLink });
      return;
    }
    try {
      const account = await getAccount(deps.db, inviter.accountId);
      await mailer.sendInvitation({ to: invitation.email, url: invitation.url, accountName: account.name, invitedBy: inviter.email });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      (req.log ?? deps.logger).warn({ err: error }, 'invitation not mailed; the link is shown to the owner');
      await renderPeople(deps, res, { shownLink: { ...shownLink, mailFailed: true } });
      return;
    }
    res.redirect(303, '/people?done=invitation-emailed');
  };
}
