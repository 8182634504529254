import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';
import { parseRoutingDestination } from './destination-url.js';
import { MAX_RULE_NAME_LENGTH, MAX_RULES, type Routing, type RoutingProblem, type RoutingRule, type SplitVariant } from './model.js';
import { parseConditions } from './parse-conditions.js';
import { isPlainObject, refuseUnknownKeys, type Problems } from './problems.js';
import { routingTimeZone } from './wall-clock.js';

export type ParsedRouting = { ok: true; routing: Routing } | { ok: false; problems: RoutingProblem[] };

export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * A routing as a client sent it (create, update, the dashboard's form), checked and normalised into what is stored:
 * countries upper case, languages, devices and weekdays lower case, lists without duplicates, instants in UTC,
 * URLs in their normal form, the zone by its current IANA name (`UTC` when left out), `rules` [] when left out.
 *
 * Rule ids: a rule sent with the id of one of `previous`'s rules keeps it (an update that reorders or edits rules);
 * a rule sent without one is new and gets `newRuleId()` (the caller's `() => newId('rul')`); an id that is not one
 * of `previous`'s, or one sent twice, is refused, so ids in recorded scans always mean the rule they meant.
 * `previous` is the code's stored routing, null on create.
 *
 * Problems point into the routing object (`/rules/3/when/hours/from`, `/split`); the API prefixes the field's own
 * pointer (`/body/routing`). Null stands for "left out" in every optional field (`split`, `name`, a condition);
 * what a null `routing` itself means (no routing) is the caller's to decide. Nothing is returned half-parsed: every
 * problem is listed, or the whole routing is returned.
 */
export function parseRouting(input: unknown, previous: Routing | null, newRuleId: () => string): ParsedRouting {
  const problems: Problems = [];
  if (!isPlainObject(input)) return { ok: false, problems: [{ pointer: '', message: 'must be an object { timeZone, rules, split }' }] };
  refuseUnknownKeys(input, ['timeZone', 'rules', 'split'], '', 'a field of routing', problems);

  let timeZone = DEFAULT_TIME_ZONE;
  if (input.timeZone !== undefined && input.timeZone !== null) {
    const zone = routingTimeZone(input.timeZone);
    if (zone) timeZone = zone;
    else problems.push({ pointer: '/timeZone', message: 'must be an IANA time zone name, such as Europe/Berlin or America/New_York' });
  }
  const rules = parseRules(input.rules, previous, newRuleId, problems);
  const split = parseSplit(input.split, problems);
  if (problems.length > 0 || !rules) return { ok: false, problems };
  return { ok: true, routing: split ? { timeZone, rules, split } : { timeZone, rules } };
}

function parseRules(input: unknown, previous: Routing | null, newRuleId: () => string, problems: Problems): RoutingRule[] | undefined {
  if (input === undefined || input === null) return [];
  if (!Array.isArray(input)) {
    problems.push({ pointer: '/rules', message: 'must be a list of rules' });
    return undefined;
  }
  if (input.length > MAX_RULES) {
    problems.push({ pointer: '/rules', message: `must have at most ${MAX_RULES} rules (it has ${input.length})` });
    return undefined;
  }
  const known = new Set(previous?.rules.map((rule) => rule.id) ?? []);
  const seen = new Map<string, number>();
  const before = problems.length;
  const rules = input.map((rule, index) => parseRule(rule, index, known, seen, newRuleId, problems));
  return problems.length === before ? (rules as RoutingRule[]) : undefined;
}

function parseRule(
  input: unknown,
  index: number,
  known: ReadonlySet<string>,
  seen: Map<string, number>,
  newRuleId: () => string,
  problems: Problems,
): RoutingRule | undefined {
  const at = `/rules/${index}`;
  if (!isPlainObject(input)) {
    problems.push({ pointer: at, message: 'must be a rule { when, destinationUrl }' });
    return undefined;
  }
  refuseUnknownKeys(input, ['id', 'name', 'when', 'destinationUrl'], at, 'a field of a rule', problems);
  const id = ruleId(input.id, `${at}/id`, index, known, seen, problems);
  const name = ruleName(input.name, `${at}/name`, problems);
  const when = input.when === undefined ? undefined : parseConditions(input.when, `${at}/when`, problems);
  if (input.when === undefined) problems.push({ pointer: `${at}/when`, message: 'is required: the conditions under which the rule applies' });
  const destination = parseRoutingDestination(input.destinationUrl);
  if (input.destinationUrl === undefined) problems.push({ pointer: `${at}/destinationUrl`, message: 'is required' });
  else if (!destination.ok) problems.push({ pointer: `${at}/destinationUrl`, message: destination.message });
  if (id === undefined || when === undefined || !destination.ok) return undefined;
  const ruleIdentity = id ?? newRuleId();
  return name === undefined
    ? { id: ruleIdentity, when, destinationUrl: destination.href }
    : { id: ruleIdentity, name, when, destinationUrl: destination.href };
}

/** The rule's id as sent (kept), null for a new rule, undefined when refused. */
function ruleId(
  input: unknown,
  at: string,
  index: number,
  known: ReadonlySet<string>,
  seen: Map<string, number>,
  problems: Problems,
): string | null | undefined {
  if (input === undefined || input === null) return null;
  if (typeof input !== 'string' || !known.has(input)) {
    problems.push({ pointer: at, message: "is not the id of one of this code's rules; leave id out for a new rule" });
    return undefined;
  }
  const first = seen.get(input);
  if (first !== undefined) {
    problems.push({ pointer: at, message: `is also the id of rule ${first}; a rule appears once` });
    return undefined;
  }
  seen.set(input, index);
  return input;
}

/** Trimmed; empty counts as no name. */
function ruleName(input: unknown, at: string, problems: Problems): string | undefined {
  if (input === undefined || input === null) return undefined;
  if (typeof input !== 'string') {
    problems.push({ pointer: at, message: 'must be a string' });
    return undefined;
  }
  const name = input.trim();
  const problem =
    [...name].length > MAX_RULE_NAME_LENGTH
      ? `must be at most ${MAX_RULE_NAME_LENGTH} characters`
      : (singleLineTextProblem(name) ?? (name !== '' && isInvisibleOnly(name) ? 'must not be blank' : undefined));
  if (problem) problems.push({ pointer: at, message: problem });
  return name === '' ? undefined : name;
}

function parseSplit(input: unknown, problems: Problems): SplitVariant[] | undefined {
  if (input === undefined || input === null) return undefined;
  if (!Array.isArray(input) || input.length < 2) {
    problems.push({ pointer: '/split', message: 'must be a list of at least two destinations with weights; leave split out for none' });
    return undefined;
  }
  const before = problems.length;
  const variants: SplitVariant[] = [];
  let total = 0;
  input.forEach((variant, index) => {
    const at = `/split/${index}`;
    if (!isPlainObject(variant)) {
      problems.push({ pointer: at, message: 'must be { destinationUrl, weight }' });
      return;
    }
    refuseUnknownKeys(variant, ['destinationUrl', 'weight'], at, 'a field of a split variant', problems);
    const destination = parseRoutingDestination(variant.destinationUrl);
    if (variant.destinationUrl === undefined) problems.push({ pointer: `${at}/destinationUrl`, message: 'is required' });
    else if (!destination.ok) problems.push({ pointer: `${at}/destinationUrl`, message: destination.message });
    const { weight } = variant;
    if (typeof weight !== 'number' || !Number.isInteger(weight) || weight < 1 || weight > 100) {
      problems.push({ pointer: `${at}/weight`, message: 'must be a whole number from 1 to 100 (the share in percent)' });
    } else total += weight;
    if (destination.ok && typeof weight === 'number') variants.push({ destinationUrl: destination.href, weight });
  });
  if (problems.length > before) return undefined;
  if (total !== 100) {
    problems.push({ pointer: '/split', message: `weights must add up to 100 (they add up to ${total})` });
    return undefined;
  }
  return variants;
}
