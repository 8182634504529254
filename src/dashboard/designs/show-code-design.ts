import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { renderCodeDesignPage } from './render-code-design-page.js';

/** GET /codes/:id/design: the design editor for one code of the account. */
export function showCodeDesign(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return (req, res) => renderCodeDesignPage(deps, req, res);
}
