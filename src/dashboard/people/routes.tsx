import { Router } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { requireOwner } from '../shared/middleware.js';
import { changeRole } from './change-role.js';
import { confirmRemovePerson } from './confirm-remove-person.js';
import { confirmRevokeInvitation } from './confirm-revoke-invitation.js';
import { createResetLink } from './create-reset-link.js';
import { invitePerson } from './invite-person.js';
import { removePerson } from './remove-person.js';
import { revokeInvitationAction } from './revoke-invitation.js';
import { showPeople } from './show-people.js';

/** /people — the account's people and invitations, roles, reset links (owners only). */
export function peopleRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  // Once for the whole section, before any route, so no page or action of it can forget it.
  router.use('/people', requireOwner);
  router.get('/people', showPeople(deps));
  router.post('/people/invitations', invitePerson(deps));
  router.get('/people/invitations/:invitationId/revoke', confirmRevokeInvitation(deps));
  router.post('/people/invitations/:invitationId/revoke', revokeInvitationAction(deps));
  router.post('/people/:userId/role', changeRole(deps));
  router.post('/people/:userId/reset-link', createResetLink(deps));
  router.get('/people/:userId/remove', confirmRemovePerson(deps));
  router.post('/people/:userId/remove', removePerson(deps));
  return router;
}
