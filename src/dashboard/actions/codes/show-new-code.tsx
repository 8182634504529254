import type { RequestHandler } from 'express';
import { getAccount } from '../../../accounts/account-service.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../../context.js';
import { NewCodePage } from '../../pages/codes/new-code-page.js';
import type { PlanUsage } from '../../pages/codes/plan-usage.js';
import { sendPage } from '../../render.js';
import type { Db } from '../../../db/schema/index.js';

/** GET /codes/new */
export function showNewCode(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const usage = await planUsage(deps.db, sessionOf(res).user.accountId);
    sendPage(res, <NewCodePage context={pageContext(res)} usage={usage} />);
  };
}

export async function planUsage(db: Db, accountId: string): Promise<PlanUsage> {
  const account = await getAccount(db, accountId);
  return { plan: account.plan, used: account.codeCount, limit: account.codeLimit };
}
