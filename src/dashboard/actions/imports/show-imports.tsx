import type { RequestHandler } from 'express';
import { listImports } from '../../../imports/import-rows.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../../context.js';
import { ImportsPage } from '../../pages/imports/imports-page.js';
import { sendPage } from '../../render.js';

/** GET /imports */
export function showImports(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    sendPage(res, <ImportsPage context={pageContext(res)} imports={await listImports(deps.db, accountId)} />);
  };
}
