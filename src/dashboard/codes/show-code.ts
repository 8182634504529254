import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { renderCodePage } from './render-code-page.js';

/** GET /codes/:id */
export function showCode(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return (req, res) => renderCodePage(deps, req, res);
}
