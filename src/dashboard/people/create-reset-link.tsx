import type { RequestHandler } from 'express';
import { createMailer, MailError } from '../../people/mailer.js';
import { createPasswordReset } from '../../people/password-resets.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { personOfAccount } from './person-lookup.js';
import { renderPeople } from './show-people.js';

/**
 * POST /people/:userId/reset-link — for a person of this account who forgot their password: mailed to them with a
 * mail server, else shown once to the owner to hand over. Not for yourself (Account has "Change password"). Any
 * other person, owners too: without mail, a second owner is the only way back in for an owner who forgot.
 */
export function createResetLink(deps: DashboardDependencies): RequestHandler {
  const mailer = createMailer(deps.config);
  return async (req, res) => {
    const owner = sessionOf(res).user;
    const person = await personOfAccount(deps, owner.accountId, String(req.params.userId));
    if (person.id === owner.userId) {
      throw new DashboardError(400, 'That is you', 'Change your own password on the Account page.');
    }
    const reset = await createPasswordReset(deps.db, { email: person.email, siteUrl: deps.config.siteUrl });
    // The person was read a moment ago; removed since, there is nobody to reset.
    if (!reset) throw new DashboardError(404, 'Not found', 'This person is no longer in the account.');
    const shownLink = { kind: 'reset' as const, email: person.email, url: reset.url, expiresAt: reset.expiresAt };
    if (!mailer) {
      await renderPeople(deps, res, { shownLink });
      return;
    }
    try {
      await mailer.sendPasswordReset({ to: person.email, url: reset.url });
    } catch (error) {
      if (!(error instanceof MailError)) throw error;
      (req.log ?? deps.logger).warn({ err: error }, 'reset link not mailed; the link is shown to the owner');
      await renderPeople(deps, res, { shownLink: { ...shownLink, mailFailed: true } });
      return;
    }
    res.redirect(303, '/people?done=reset-emailed');
  };
}
