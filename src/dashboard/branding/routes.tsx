import { Router } from 'express';
import { removeLogo } from './remove-logo.js';
import { saveColor } from './save-color.js';
import { showBranding } from './show-branding.js';
import { showPreviewPage } from './show-preview-page.js';
import { showSample } from './show-sample.js';
import { uploadLogo } from './upload-logo.js';
import type { DashboardDependencies } from '../shared/context.js';
import { requireOwner } from '../shared/middleware.js';

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
