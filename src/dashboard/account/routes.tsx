import { Router } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { requireOwner } from '../shared/middleware.js';
import { changePasswordAction } from './change-password.js';
import { confirmDeleteAccount, deleteAccountAction } from './delete-account.js';
import { downloadAccountData } from './download-account-data.js';
import { showAccount } from './show-account.js';
import { signOutEverywhere } from './sign-out-everywhere.js';

/**
 * /account — one's own password and sessions, and the plan and usage: any signed-in person. The account's data
 * (download all of it, delete the account): owners only.
 */
export function accountRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/account', showAccount(deps));
  router.post('/account/password', changePasswordAction(deps));
  router.post('/account/sign-out-everywhere', signOutEverywhere(deps));
  router.get('/account/data.zip', requireOwner, downloadAccountData(deps));
  router.get('/account/delete', requireOwner, confirmDeleteAccount());
  router.post('/account/delete', requireOwner, deleteAccountAction(deps));
  return router;
}
