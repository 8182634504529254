import type { RequestHandler } from 'express';
import { checkedDesign, getDesignTemplate, updateDesignTemplate } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { templateNameProblem } from './create-design-template.js';
import { designInput, readDesignForm } from './design-form.js';
import { renderTemplatePage } from './render-template-page.js';
import { sampleText } from './render-preview.js';

/**
 * POST /designs/:id: the template's name and design; every code following it takes the new design. A design the
 * checks refuse is not stored: the page comes back with the form as sent and the reasons beside the preview.
 */
export function saveDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const template = await getDesignTemplate(deps.db, { accountId, id: req.params.id });
    const values = readDesignForm(req.body);
    const name = formText(req.body, 'name');
    // Checked against a short URL of the usual length too, as the preview is, so what was shown is what is kept.
    const checked = checkedDesign(designInput(values, template.design.logo?.png ?? null), sampleText(deps));
    if (!checked.ok) {
      await renderTemplatePage(deps, req, res, { values, name, error: 'Nothing was saved: this design would not scan reliably (see the reasons beside the preview).' });
      return;
    }
    try {
      await updateDesignTemplate(deps.db, { accountId, id: template.id, name, design: checked.design });
    } catch (error) {
      const message = templateNameProblem(error);
      if (message === undefined) throw error;
      await renderTemplatePage(deps, req, res, { values, name, error: message });
      return;
    }
    res.redirect(303, `/designs/${template.id}?done=saved`);
  };
}
