import type { RequestHandler } from 'express';
import { createDesignTemplate, listDesignTemplates, TemplateNameInvalidError, TemplateNameTakenError } from '../../designs/index.js';
import { DEFAULT_DESIGN } from '../../qr/design/design.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formText } from '../shared/forms.js';
import { DesignListPage } from './design-list-page.js';
import { sendPage } from '../shared/render.js';

/** POST /designs: a new template with the default look, opened in the editor. */
export function createTemplate(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const name = formText(req.body, 'name');
    try {
      const template = await createDesignTemplate(deps.db, { accountId, name, design: DEFAULT_DESIGN });
      res.redirect(303, `/designs/${template.id}?done=created`);
    } catch (error) {
      const message = templateNameProblem(error);
      if (message === undefined) throw error;
      const templates = await listDesignTemplates(deps.db, accountId);
      sendPage(res, <DesignListPage context={pageContext(res)} templates={templates} error={message} name={name} />, 400);
    }
  };
}

/** What to tell the person about a refused template name, or undefined for any other error. */
export function templateNameProblem(error: unknown): string | undefined {
  if (error instanceof TemplateNameTakenError) return `Nothing was saved: a template named “${error.templateName}” exists already. Choose another name.`;
  if (error instanceof TemplateNameInvalidError) return `Nothing was saved: ${error.message}`;
  return undefined;
}
