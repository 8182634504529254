import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { isCodeTypeName } from '../../codes/types/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { NewCodePage } from './new-code-page.js';
import type { PlanUsage } from './plan-usage-line.js';
import { sendPage } from '../shared/render.js';
import type { Db } from '../../db/schema/index.js';
import { viewerTimeZone } from '../shared/viewer-time-zone.js';

/** GET /codes/new[?type=PDF]: an unknown type shows the URL form, as the picker's first choice. */
export function showNewCode(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const usage = await planUsage(deps.db, sessionOf(res).user.accountId);
    const type = typeof req.query.type === 'string' && isCodeTypeName(req.query.type) ? req.query.type : 'URL';
    sendPage(res, <NewCodePage context={pageContext(res)} usage={usage} type={type} zoneGuess={viewerTimeZone(req)} />);
  };
}

export async function planUsage(db: Db, accountId: string): Promise<PlanUsage> {
  const account = await getAccount(db, accountId);
  return { plan: account.plan, used: account.codeCount, limit: account.codeLimit };
}
