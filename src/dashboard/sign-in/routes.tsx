import { Router } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { acceptInvitationAction } from './accept-invitation.js';
import { confirmSignupAction, showSignupConfirmation } from './confirm-signup.js';
import { requestPasswordReset } from './request-password-reset.js';
import { resetPasswordAction } from './reset-password.js';
import { showInvitation } from './show-invitation.js';
import { showPasswordResetRequest } from './show-password-reset-request.js';
import { showPasswordReset } from './show-password-reset.js';
import { showHome, showSignIn } from './show-sign-in.js';
import { requireSignupOpen, showSignup } from './show-signup.js';
import { signIn } from './sign-in.js';
import { signOut } from './sign-out.js';
import { signUpAction } from './sign-up.js';

/**
 * Sign in and sign out, and the ways in before one is signed in: /invitations, /password-reset and /signup. All
 * but sign-out are public (see isPublicPath): reached from a link or the sign-in page.
 */
export function signInRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/', showHome());
  router.get('/login', showSignIn(deps));
  router.post('/login', signIn(deps));
  router.post('/logout', signOut(deps));

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
  return router;
}
