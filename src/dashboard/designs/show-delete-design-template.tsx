import type { RequestHandler } from 'express';
import { getDesignTemplate } from '../../designs/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DeleteDesignTemplatePage } from './delete-design-template-page.js';
import { sendPage } from '../shared/render.js';

/** GET /designs/:id/delete: the confirmation, with how many codes go back to the default look. */
export function showDeleteDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const template = await getDesignTemplate(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    sendPage(res, <DeleteDesignTemplatePage context={pageContext(res)} template={template} />);
  };
}
