import type { RequestHandler } from 'express';
import { LastOwnerError, UserNotFoundError } from '../../people/errors.js';
import { isUserRole, setUserRole } from '../../people/users.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { formText } from '../shared/forms.js';
import { notHere } from './person-lookup.js';
import { renderPeople } from './show-people.js';

/** POST /people/:userId/role — the service refuses to demote the last owner; the page says why. */
export function changeRole(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const owner = sessionOf(res).user;
    const role = formText(req.body, 'role');
    if (!isUserRole(role)) throw new DashboardError(400, 'Unknown role', 'A person is an owner or a member.');
    const userId = String(req.params.userId);
    try {
      await setUserRole(deps.db, { accountId: owner.accountId, userId, role });
    } catch (error) {
      if (error instanceof UserNotFoundError) throw notHere();
      if (!(error instanceof LastOwnerError)) throw error;
      await renderPeople(deps, res, { error: error.message }, 409);
      return;
    }
    // An owner who made themself a member can no longer open People.
    res.redirect(303, userId === owner.userId && role === 'member' ? '/account' : '/people?done=role-changed');
  };
}
