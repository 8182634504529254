import express, { Router } from 'express';
import { accountRoutes } from './account/routes.js';
import { analyticsRoutes } from './analytics/routes.js';
import { apiWebhooksRoutes } from './api-webhooks/routes.js';
import { brandingRoutes } from './branding/routes.js';
import { codesRoutes } from './codes/routes.js';
import { designsRoutes } from './designs/routes.js';
import { importsRoutes } from './imports/routes.js';
import { peopleRoutes } from './people/routes.js';
import { routingRoutes } from './routing/routes.js';
import { loadAssets } from './shared/assets.js';
import type { DashboardDependencies } from './shared/context.js';
import { dashboardErrorHandler, dashboardNotFound } from './shared/errors.js';
import { refuseNonTextFields } from './shared/forms.js';
import { dashboardContext, isDashboardPath, isPublicPath, requireSignedIn } from './shared/middleware.js';
import { readsAfterOwnWrites } from './shared/stale-reads.js';
import { signInRoutes } from './sign-in/routes.js';

export type { DashboardDependencies } from './shared/context.js';

/**
 * Every section's routes, in the order they are tried. A section is one folder holding its routes, actions, pages
 * and form model; what several sections use is in shared/. Sections never import this file or each other both ways.
 */
export const dashboardSections: ReadonlyArray<(deps: DashboardDependencies) => Router> = [
  signInRoutes,
  accountRoutes,
  peopleRoutes,
  codesRoutes,
  routingRoutes,
  designsRoutes,
  importsRoutes,
  analyticsRoutes,
  apiWebhooksRoutes,
  brandingRoutes,
];

/**
 * The web dashboard at the site root: server-rendered pages (TSX, escaped by the renderer) enhanced by htmx.
 * It calls the same services as the API; it never holds an API key. Assets are served from /assets with content
 * hashes; every other request outside the dashboard's paths passes through untouched (to the API's JSON 404).
 */
export function createDashboardRouter(deps: DashboardDependencies): Router {
  const assets = loadAssets();
  const dashboard = Router();
  // Forms are small; file uploads (a later part) get their own parser on their own routes.
  dashboard.use(express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 }));
  dashboard.use(refuseNonTextFields);
  dashboard.use(dashboardContext(deps, assets.urls));
  dashboard.use(readsAfterOwnWrites(deps));
  // Signing in is checked here once for every page but the public ones, so no route can forget it.
  dashboard.use((req, res, next) => (isPublicPath(req.path) ? next() : requireSignedIn(req, res, next)));
  for (const routes of dashboardSections) dashboard.use(routes(deps));
  dashboard.use(dashboardNotFound);
  dashboard.use(
    dashboardErrorHandler(deps.logger, () => ({ session: undefined, csrfToken: '', assets: assets.urls, path: '', siteUrl: deps.config.siteUrl, timeZone: 'UTC' })),
  );

  const router = Router();
  router.use(assets.handler);
  router.use((req, res, next) => {
    if (isDashboardPath(req.path)) dashboard(req, res, next);
    else next();
  });
  return router;
}
