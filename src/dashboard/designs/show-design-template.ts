import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { renderTemplatePage } from './render-template-page.js';

/** GET /designs/:id: the template in the editor. */
export function showDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return (req, res) => renderTemplatePage(deps, req, res);
}
