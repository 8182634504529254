import { Router } from 'express';
import { exportAccountScans } from '../actions/analytics/export-account-scans.js';
import { exportCodeScans } from '../actions/analytics/export-code-scans.js';
import { showAccountAnalytics } from '../actions/analytics/show-account-analytics.js';
import { showCodeAnalytics } from '../actions/analytics/show-code-analytics.js';
import type { DashboardDependencies } from '../context.js';

/** /analytics and each code's analytics — totals, scans over time, breakdowns, recent scans, CSV export. */
export function analyticsRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/analytics', showAccountAnalytics(deps));
  router.get('/analytics/scans.csv', exportAccountScans(deps));
  router.get('/codes/:id/analytics', showCodeAnalytics(deps));
  router.get('/codes/:id/scans.csv', exportCodeScans(deps));
  return router;
}
