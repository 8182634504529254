import { Router } from 'express';
import { exportAccountScans } from './export-account-scans.js';
import { exportCodeScans } from './export-code-scans.js';
import { showAccountAnalytics } from './show-account-analytics.js';
import { showCodeAnalytics } from './show-code-analytics.js';
import type { DashboardDependencies } from '../shared/context.js';

/** /analytics and each code's analytics — totals, scans over time, breakdowns, recent scans, CSV export. */
export function analyticsRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/analytics', showAccountAnalytics(deps));
  router.get('/analytics/scans.csv', exportAccountScans(deps));
  router.get('/codes/:id/analytics', showCodeAnalytics(deps));
  router.get('/codes/:id/scans.csv', exportCodeScans(deps));
  return router;
}
