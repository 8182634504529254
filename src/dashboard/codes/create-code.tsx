import type { RequestHandler } from 'express';
import { createQrCode } from '../../codes/index.js';
import { isCodeTypeName } from '../../codes/types/index.js';
import { ApiError } from '../../errors.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { NewCodePage } from './new-code-page.js';
import { sendPage } from '../shared/render.js';
import { readCodeForm, type CodeFormErrors } from './code-form.js';
import { createTypedCodeFromForm } from './create-typed-code.js';
import { limitMessage, planUsage } from './plan-limit.js';

/**
 * POST /codes[?type=…]: a code made by the signed-in person (its first destination is recorded as theirs). A URL
 * code (the default, and what the API makes) is read as before; every other type by its own form.
 */
export function createCode(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { user } = sessionOf(res);
    const requested = typeof req.query.type === 'string' ? req.query.type : formText(req.body, 'type');
    if (requested !== '' && requested !== 'URL') {
      if (!isCodeTypeName(requested)) {
        res.redirect(303, '/codes/new');
        return;
      }
      await createTypedCodeFromForm(deps, req, res, user, requested as Exclude<typeof requested, 'URL'>);
      return;
    }
    const form = readCodeForm(req.body);
    const again = async (status: number, refused: { errors?: CodeFormErrors; atLimit?: boolean }) => {
      const usage = await planUsage(deps.db, user.accountId);
      const page = (
        <NewCodePage context={pageContext(res)} usage={usage} values={form.values} errors={refused.errors} limitMessage={refused.atLimit ? limitMessage(usage) : undefined} />
      );
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
