import type { RequestHandler } from 'express';
import { listImports } from '../../imports/import-rows.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { ImportsPage } from './imports-page.js';
import { sendPage } from '../shared/render.js';

/** GET /imports */
export function showImports(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    sendPage(res, <ImportsPage context={pageContext(res)} imports={await listImports(deps.db, accountId)} />);
  };
}
