import type { RequestHandler } from 'express';
import { getQrCode } from '../../codes/index.js';
import { designOfCode } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DesignPreview } from './design-preview.js';
import { sendFragment } from '../shared/render.js';
import { designInput, readDesignForm } from './design-form.js';
import { codeText, renderPreview } from './render-preview.js';

/**
 * POST /codes/:id/design/preview (htmx, on every change of the editor): the preview as the form stands, with the
 * reasons it would be refused. Stores nothing.
 */
export function previewCodeDesign(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const [code, look] = await Promise.all([getQrCode(deps.db, { accountId, id: req.params.id }), designOfCode(deps.db, accountId, req.params.id)]);
    const preview = await renderPreview(deps, designInput(readDesignForm(req.body), look.design?.logo?.png ?? null), await codeText(deps, code, accountId));
    sendFragment(res, DesignPreview(preview));
  };
}
