import type { RequestHandler } from 'express';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { ConfirmPage } from './confirm-page.js';
import { sendPage } from '../shared/render.js';
import { personOfAccount } from './person-lookup.js';

/** GET /people/:userId/remove — names the person before anything happens. */
export function confirmRemovePerson(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const session = sessionOf(res);
    const person = await personOfAccount(deps, session.user.accountId, String(req.params.userId));
    const self = person.id === session.user.userId;
    sendPage(
      res,
      <ConfirmPage context={pageContext(res)} title={`Remove ${person.email}?`} action={`/people/${person.id}/remove`} button="Remove person">
        <p>
          {self ? 'You' : person.email} will leave <strong>{session.user.accountName}</strong> at once: signed out everywhere, and unable to sign in
          again. The codes and API keys {self ? 'you' : 'they'} made stay with the account.
        </p>
        {self && <p>You are removing yourself: you will be signed out now.</p>}
      </ConfirmPage>,
    );
  };
}
