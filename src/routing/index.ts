/**
 * Routing (issue 28): one printed code, many destinations. Pure: no database, no HTTP; the API, storage, the
 * redirect and the dashboard build on these.
 *
 *   // API / dashboard, on create and update (previous: the stored routing, null on create):
 *   const parsed = parseRouting(body.routing, stored?.routing ?? null, () => newId('rul'));
 *   if (!parsed.ok) throw errors.invalidBody(parsed.problems.map((p) => ({ path: `/body/routing${p.pointer}`, message: p.message })));
 *   // store parsed.routing as JSON; it is also what the API reads back.
 *
 *   // Redirect, when a code enters the cache (and when its change notification arrives):
 *   const compiled = code.routing ? compileRouting(code.routing, code.id) : null;
 *   // per scan, after the scanner's UA, country, language and visitor are known:
 *   const decision = compiled && routeScan(compiled, { os, browser, device, country, language, at: Date.now(), visitor });
 *   // decision null: the code's own destination (or page); else redirect to decision.destinationUrl and record
 *   // decision.ruleId and decision.variant with the scan.
 *
 *   // Dashboard "Try it": the same compileRouting + routeScan with the chosen facts and instant (visitor null draws
 *   // a variant at random; pass a fixed `random` to show one).
 */
export { compileRouting, type CompiledRouting } from './compile-routing.js';
export { COUNTRY_CODES } from './country-codes.js';
export { DEVICE_CLASSES, type DeviceClass } from './device-classes.js';
export { routeScan } from './evaluate-routing.js';
export {
  MAX_RULE_NAME_LENGTH,
  MAX_RULES,
  WEEKDAYS,
  type RouteDecision,
  type Routing,
  type RoutingConditions,
  type RoutingProblem,
  type RoutingRule,
  type ScanFacts,
  type SplitVariant,
  type Weekday,
} from './model.js';
export { CONDITION_KEYS } from './parse-conditions.js';
export { DEFAULT_TIME_ZONE, parseRouting, type ParsedRouting } from './parse-routing.js';
