import { Router } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { changePasswordAction } from './change-password.js';
import { showAccount } from './show-account.js';
import { signOutEverywhere } from './sign-out-everywhere.js';

/** /account — one's own password and sessions, and the plan and usage; any signed-in person. */
export function accountRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/account', showAccount(deps));
  router.post('/account/password', changePasswordAction(deps));
  router.post('/account/sign-out-everywhere', signOutEverywhere(deps));
  return router;
}
