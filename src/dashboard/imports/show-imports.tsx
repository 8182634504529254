import type { RequestHandler } from 'express';
import { listImports } from '../../imports/import-rows.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { ImportsPage } from './imports-page.js';
import { sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';

/** GET /imports */
export function showImports(_deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const { accountId } = sessionOf(res).user;
    sendPage(res, <ImportsPage context={pageContext(res)} imports={await staleReadsOf(res).read((db) => listImports(db, accountId))} />);
  };
}
