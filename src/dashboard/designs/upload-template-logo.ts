import type { RequestHandler } from 'express';
import { checkedDesign, getDesignTemplate, updateDesignTemplate } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { problemInWords } from './design-form.js';
import { readLogoUpload } from './logo-upload.js';
import { answerLogoUpload } from './logo-status.js';
import { sampleText } from './render-preview.js';
import { withLogo } from './with-logo.js';

/** POST /designs/:id/logo (multipart): the template with this logo, saved; answered as uploadCodeLogo's is. */
export function uploadTemplateLogo(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const template = await getDesignTemplate(deps.db, { accountId, id: req.params.id });
    await answerLogoUpload(req, res, { hadLogo: template.design.logo != null, then: `/designs/${template.id}?done=logo` }, async () => {
      const png = await readLogoUpload(req);
      const checked = checkedDesign(withLogo(template.design, png), sampleText(deps));
      if (!checked.ok) throw new DashboardError(400, 'The logo was not saved', checked.problems.map(problemInWords).join(' '));
      await updateDesignTemplate(deps.db, { accountId, id: template.id, design: checked.design });
    });
  };
}
