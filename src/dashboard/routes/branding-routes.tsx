import { Router } from 'express';
import { removeLogo } from '../actions/branding/remove-logo.js';
import { saveColor } from '../actions/branding/save-color.js';
import { showBranding } from '../actions/branding/show-branding.js';
import { showPreviewPage } from '../actions/branding/show-preview-page.js';
import { showSample } from '../actions/branding/show-sample.js';
import { uploadLogo } from '../actions/branding/upload-logo.js';
import type { DashboardDependencies } from '../context.js';
import { requireOwner } from '../middleware.js';

/** /account/branding — the colour and logo of the account's landing pages (owners only). */
export function brandingRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  // Once for the whole section, before any route, so no page or action of it can forget it.
  router.use('/account/branding', requireOwner);
  router.get('/account/branding', showBranding(deps));
  router.post('/account/branding/color', saveColor(deps));
  router.post('/account/branding/logo', uploadLogo(deps));
  router.post('/account/branding/logo/remove', removeLogo(deps));
  router.get('/account/branding/sample', showSample(deps));
  router.get('/account/branding/preview', showPreviewPage(deps));
  return router;
}
