import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import {
  checkedDesign,
  createDesignTemplate,
  designOfCode,
  setCodeDesign,
  setCodeTemplate,
  TemplateNameInvalidError,
  TemplateNameTakenError,
} from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { designInput, readDesignForm } from './design-form.js';
import { renderCodeDesignPage } from './render-code-design-page.js';
import { codeText } from './render-preview.js';

/**
 * POST /codes/:id/design: "Save design" gives the code this design as its own (it stops following a template);
 * "Save as template" stores it as a new template of the account and makes the code follow it. A design the
 * checks refuse is not stored: the page comes back with the form as sent and the reasons beside the preview.
 */
export function saveCodeDesign(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const codeId = req.params.id;
    const [code, look] = await Promise.all([getQrCode(deps.db, { accountId, id: codeId }), designOfCode(deps.db, accountId, codeId)]);
    const values = readDesignForm(req.body);
    const input = designInput(values, look.design?.logo?.png ?? null);
    const asTemplate = formText(req.body, 'intent') === 'template';
    const templateName = formText(req.body, 'templateName');
    const text = await codeText(deps, code, accountId);
    const checked = checkedDesign(input, text);
    if (!checked.ok) {
      await renderCodeDesignPage(deps, req, res, { values, templateName, error: 'Nothing was saved: this design would not scan reliably (see the reasons beside the preview).' });
      return;
    }
    if (!asTemplate) {
      await setCodeDesign(deps.db, { accountId, codeId, design: checked.design, text });
      res.redirect(303, `/codes/${encodeURIComponent(codeId)}/design?done=saved`);
      return;
    }
    try {
      const template = await createDesignTemplate(deps.db, { accountId, name: templateName, design: checked.design });
      await setCodeTemplate(deps.db, { accountId, codeId, templateId: template.id });
    } catch (error) {
      if (error instanceof TemplateNameTakenError) {
        await renderCodeDesignPage(deps, req, res, { values, templateName, error: `Nothing was saved: a template named “${error.templateName}” exists already. Choose another name.` });
        return;
      }
      if (error instanceof TemplateNameInvalidError) {
        await renderCodeDesignPage(deps, req, res, { values, templateName, error: `Nothing was saved: ${error.message}` });
        return;
      }
      throw error;
    }
    res.redirect(303, `/codes/${encodeURIComponent(codeId)}/design?done=template`);
  };
}
