import type { RequestHandler } from 'express';
import { listDesignTemplates } from '../../designs/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DESIGN_LIST_DONE, DesignListPage } from './design-list-page.js';
import { sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';

/** GET /designs: the account's templates. */
export function showDesignList(_deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const templates = await staleReadsOf(res).read((db) => listDesignTemplates(db, accountId));
    const done = typeof req.query.done === 'string' && Object.hasOwn(DESIGN_LIST_DONE, req.query.done) ? (req.query.done as keyof typeof DESIGN_LIST_DONE) : undefined;
    sendPage(res, <DesignListPage context={pageContext(res)} templates={templates} done={done} />);
  };
}
