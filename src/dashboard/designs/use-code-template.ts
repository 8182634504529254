import type { RequestHandler } from 'express';
import { setCodeTemplate } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';

/**
 * POST /codes/:id/design/template: the code follows the chosen template (its own design is dropped), or with
 * "default" has the default look; "own" keeps its own design. Another account's template is a 404.
 */
export function useCodeTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const codeId = req.params.id;
    const choice = formText(req.body, 'template');
    if (choice === 'own') {
      res.redirect(303, `/codes/${encodeURIComponent(codeId)}/design`);
      return;
    }
    const templateId = choice === 'default' || choice === '' ? null : choice;
    await setCodeTemplate(deps.db, { accountId, codeId, templateId });
    res.redirect(303, `/codes/${encodeURIComponent(codeId)}/design?done=${templateId === null ? 'default' : 'following'}`);
  };
}
