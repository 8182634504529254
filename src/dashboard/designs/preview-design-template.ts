import type { RequestHandler } from 'express';
import { getDesignTemplate } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DesignPreview } from './design-preview.js';
import { sendFragment } from '../shared/render.js';
import { designInput, readDesignForm } from './design-form.js';
import { renderPreview, sampleText } from './render-preview.js';

/** POST /designs/:id/preview (htmx): the template's preview as the form stands. Stores nothing. */
export function previewDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const template = await getDesignTemplate(deps.db, { accountId: sessionOf(res).user.accountId, id: req.params.id });
    const preview = await renderPreview(deps, designInput(readDesignForm(req.body), template.design.logo?.png ?? null), sampleText(deps));
    sendFragment(res, DesignPreview(preview));
  };
}
