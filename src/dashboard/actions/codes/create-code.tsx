import type { RequestHandler } from 'express';
import { createQrCode } from '../../../codes/index.js';
import { ApiError } from '../../../errors.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../../context.js';
import { NewCodePage } from '../../pages/codes/new-code-page.js';
import { planLabel } from '../../pages/account/plan-usage.js';
import { sendPage } from '../../render.js';
import { readCodeForm, type CodeFormErrors } from './code-form.js';
import { planUsage } from './show-new-code.js';

/** POST /codes: a URL code made by the signed-in person (its first destination is recorded as theirs). */
export function createCode(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const form = readCodeForm(req.body);
    const again = async (status: number, refused: { errors?: CodeFormErrors; atLimit?: boolean }) => {
      const usage = await planUsage(deps.db, user.accountId);
      const limitMessage = refused.atLimit
        ? `The ${planLabel(usage.plan)} plan allows ${usage.limit} codes and all of them are in use. ` +
          'Delete a code you no longer need, or move to a larger plan, to create this one.'
        : undefined;
      const page = <NewCodePage context={pageContext(res)} usage={usage} values={form.values} errors={refused.errors} limitMessage={limitMessage} />;
      sendPage(res, page, status);
    };
    if (!form.ok) {
      await again(400, { errors: form.errors });
      return;
    }
    try {
      const { code } = await createQrCode(deps.db, {
        accountId: user.accountId,
        name: form.name,
        destinationUrl: form.destinationUrl,
        actor: { kind: 'user', userId: user.userId },
      });
      res.redirect(303, `/codes/${code.id}?done=created`);
    } catch (error) {
      // The same limit, checked under the same lock, as the API's 402 plan_limit_reached.
      if (!(error instanceof ApiError) || error.code !== 'plan_limit_reached') throw error;
      await again(402, { atLimit: true });
    }
  };
}
