import { Router } from 'express';
import { changePasswordAction } from '../account/change-password.js';
import { showAccount } from '../account/show-account.js';
import { signOutEverywhere } from '../account/sign-out-everywhere.js';
import { acceptInvitationAction } from '../sign-in/accept-invitation.js';
import { changeRole } from './change-role.js';
import { confirmRemovePerson } from './confirm-remove-person.js';
import { confirmRevokeInvitation } from './confirm-revoke-invitation.js';
import { confirmSignupAction, showSignupConfirmation } from '../sign-in/confirm-signup.js';
import { createResetLink } from './create-reset-link.js';
import { invitePerson } from './invite-person.js';
import { removePerson } from './remove-person.js';
import { requestPasswordReset } from '../sign-in/request-password-reset.js';
import { resetPasswordAction } from '../sign-in/reset-password.js';
import { revokeInvitationAction } from './revoke-invitation.js';
import { showInvitation } from '../sign-in/show-invitation.js';
import { showPasswordResetRequest } from '../sign-in/show-password-reset-request.js';
import { showPasswordReset } from '../sign-in/show-password-reset.js';
import { showPeople } from './show-people.js';
import { showSignup, requireSignupOpen } from '../sign-in/show-signup.js';
import { signUpAction } from '../sign-in/sign-up.js';
import type { DashboardDependencies } from '../shared/context.js';
import { requireOwner } from '../shared/middleware.js';

/** /people, /account, /invitations, /password-reset, /signup — people, invitations, passwords, plan and usage. */
export function peopleRoutes(deps: DashboardDependencies): Router {
  const router = Router();

  // Public (see isPublicPath): reached from a link or the sign-in page.
  router.get('/invitations/:token', showInvitation(deps));
  router.post('/invitations/:token', acceptInvitationAction(deps));
  router.get('/password-reset', showPasswordResetRequest(deps));
  router.post('/password-reset', requestPasswordReset(deps));
  router.get('/password-reset/:token', showPasswordReset(deps));
  router.post('/password-reset/:token', resetPasswordAction(deps));
  router.use('/signup', requireSignupOpen(deps));
  router.get('/signup', showSignup(deps));
  router.post('/signup', signUpAction(deps));
  router.get('/signup/confirm/:token', showSignupConfirmation(deps));
  router.post('/signup/confirm/:token', confirmSignupAction(deps));

  // Any signed-in person.
  router.get('/account', showAccount(deps));
  router.post('/account/password', changePasswordAction(deps));
  router.post('/account/sign-out-everywhere', signOutEverywhere(deps));

  // Owners only: once for the whole section, so no route of it can forget.
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
