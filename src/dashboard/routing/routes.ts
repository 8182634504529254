import { Router } from 'express';
import type { DashboardDependencies } from '../shared/context.js';
import { changeRuleOrder, saveRule, showRule } from './rule-actions.js';
import { removeSplit, saveSchedule, saveSplit, saveTimeZone, showRouting } from './routing-actions.js';

/**
 * /codes/:id/routing — a code's rules (add, edit, reorder, remove), split, schedule and time zone, and "Try it"
 * (issue 28). Every action is a form that posts and redirects back; htmx only swaps parts of the page. Members may
 * do all of it, as with the rest of a code.
 */
export function routingRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/codes/:id/routing', showRouting(deps));
  router.post('/codes/:id/routing/split', saveSplit(deps));
  router.post('/codes/:id/routing/split/remove', removeSplit(deps));
  router.post('/codes/:id/routing/schedule', saveSchedule(deps));
  router.post('/codes/:id/routing/time-zone', saveTimeZone(deps));
  router.post('/codes/:id/routing/rules', saveRule(deps));
  // Before :ruleId, which would otherwise take "new" for an id.
  router.get('/codes/:id/routing/rules/new', showRule(deps));
  router.get('/codes/:id/routing/rules/:ruleId', showRule(deps));
  router.post('/codes/:id/routing/rules/:ruleId', saveRule(deps));
  router.post('/codes/:id/routing/rules/:ruleId/move', changeRuleOrder(deps, 'move'));
  router.post('/codes/:id/routing/rules/:ruleId/remove', changeRuleOrder(deps, 'remove'));
  return router;
}
