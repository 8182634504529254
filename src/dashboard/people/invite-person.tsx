import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { EmailTakenError, InvalidEmailError, InvitationMailLimitError } from '../../people/errors.js';
import { createInvitation } from '../../people/invitations.js';
import { createMailer, MailError } from '../../people/mailer.js';
import { isUserRole } from '../../people/users.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { renderPeople } from './show-people.js';

/**
 * POST /people/invitations — with a mail server the link is mailed (then back to the list); without one, or when
 * the server refuses the mail, the page shows the one-time link to the owner at once (it exists nowhere else).
 *
 * With a mail server an email that already has a user is answered like any other (the invitation is listed, the
 * page says it is on its way) and the person is mailed a notice instead of the link, so the form does not tell an
 * account's owners who else uses qroute. Without one the owner is told at once: they hand the link over themselves,
 * and its page would say the same when opened. Invitation mails are limited per account and per recipient
 * (invitation-limit.ts): 429 with Retry-After past either limit.
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
        limitMails: mailer !== undefined,
        allowTakenEmail: mailer !== undefined,
      });
    } catch (error) {
      if (error instanceof InvitationMailLimitError) {
        res.setHeader('Retry-After', String(error.retryAfterSeconds));
        const message = `${error.message} Try again in ${waitInWords(error.retryAfterSeconds)}.`;
        await renderPeople(deps, res, { invite: { values, errors: { email: message } } }, 429);
        return;
      }
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
      const about = { to: invitation.email, accountName: account.name, invitedBy: inviter.email };
      if (invitation.emailTaken) await mailer.sendInvitationToTakenEmail(about);
      else await mailer.sendInvitation({ ...about, url: invitation.url });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      (req.log ?? deps.logger).warn({ err: error }, 'invitation not mailed; the link is shown to the owner');
      await renderPeople(deps, res, { shownLink: { ...shownLink, mailFailed: true } });
      return;
    }
    res.redirect(303, '/people?done=invitation-emailed');
  };
}

/** "40 minutes", "3 hours": a wait as a person reads it, rounded up. */
function waitInWords(seconds: number): string {
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 120) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  return `${Math.ceil(minutes / 60)} hours`;
}
