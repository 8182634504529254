import type { RequestHandler } from 'express';
import { LastOwnerError, UserNotFoundError } from '../../people/errors.js';
import { removeUser } from '../../people/users.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { signOut } from '../shared/middleware.js';
import { notHere } from './person-lookup.js';
import { renderPeople } from './show-people.js';

/** POST /people/:userId/remove — the person's sessions end with them; the last owner stays (the service refuses). */
export function removePerson(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const owner = sessionOf(res).user;
    const userId = String(req.params.userId);
    try {
      await removeUser(deps.db, { accountId: owner.accountId, userId });
    } catch (error) {
      if (error instanceof UserNotFoundError) throw notHere();
      if (!(error instanceof LastOwnerError)) throw error;
      await renderPeople(deps, res, { error: error.message }, 409);
      return;
    }
    if (userId === owner.userId) {
      // Their session went with them; clear the cookie too.
      await signOut(deps, undefined, res);
      res.redirect(303, '/login');
      return;
    }
    res.redirect(303, '/people?done=person-removed');
  };
}
