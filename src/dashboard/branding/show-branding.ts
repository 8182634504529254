import type { RequestHandler } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { brandingNotice } from './branding-form.js';
import { renderBranding } from './render-branding.js';

/** GET /account/branding */
export function showBranding(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    await renderBranding(deps, res, { notice: brandingNotice(req.query.done) });
  };
}
