import { LocalClock } from './local-clock.js';
import { WEEKDAYS, type RouteDecision, type Routing, type RoutingConditions } from './model.js';
import { codeSalt } from './split-bucket.js';
import { parseClockTime } from './wall-clock.js';

/** Every weekday's bit set: the rule has no weekday condition. */
export const ALL_WEEKDAYS = 0b111_1111;
/** `hoursFrom` of a rule without an hours window. */
export const NO_HOURS = -1;

/** One rule, ready to be asked: sets for lists, numbers for times, and the answer it gives made in advance. */
export interface CompiledRule {
  readonly os: ReadonlySet<string> | null;
  readonly browsers: ReadonlySet<string> | null;
  readonly devices: ReadonlySet<string> | null;
  readonly countries: ReadonlySet<string> | null;
  readonly languages: ReadonlySet<string> | null;
  /** Epoch ms, inclusive; -Infinity without `from`. */
  readonly fromMs: number;
  /** Epoch ms, exclusive; Infinity without `until`. */
  readonly untilMs: number;
  /** Bit d set for weekday d (0 Monday … 6 Sunday). */
  readonly weekdays: number;
  /** Minutes since local midnight, NO_HOURS without a window; `hoursUntil` < `hoursFrom` wraps past midnight. */
  readonly hoursFrom: number;
  readonly hoursUntil: number;
  readonly decision: RouteDecision;
}

export interface CompiledRouting {
  readonly codeId: string;
  readonly rules: readonly CompiledRule[];
  /** Bucket (0 … 99) → the split's answer; null without a split. */
  readonly splitByBucket: readonly RouteDecision[] | null;
  /** The code's salt for split buckets (split-bucket.ts). */
  readonly salt: number;
  /** Only when some rule reads weekdays or hours: null costs nothing per scan. */
  readonly clock: LocalClock | null;
}

/**
 * A stored routing made ready for scans, once per code when the redirect caches the code (and again when the cache
 * hears the code changed): everything a scan needs is a set, a number or a prepared answer, so routeScan allocates
 * nothing. `codeId` salts the split (split-bucket.ts). The routing must be parseRouting's output (what storage
 * holds); anything else throws, which the cache should treat as "no routing" and log.
 *
 * The compiled value keeps a per-minute memo of local time (LocalClock): one per code, used by one thread, fine
 * to share across that instance's requests; it holds no secrets and needs no disposal.
 */
export function compileRouting(routing: Routing, codeId: string): CompiledRouting {
  const rules = routing.rules.map((rule): CompiledRule => {
    const { when } = rule;
    const hours = compileHours(when.hours, rule.id);
    return {
      os: setOf(when.os),
      browsers: setOf(when.browsers),
      devices: setOf(when.devices),
      countries: setOf(when.countries),
      languages: setOf(when.languages),
      fromMs: when.from === undefined ? -Infinity : instant(when.from, rule.id),
      untilMs: when.until === undefined ? Infinity : instant(when.until, rule.id),
      weekdays: weekdayMask(when.weekdays),
      hoursFrom: hours[0],
      hoursUntil: hours[1],
      decision: Object.freeze({ destinationUrl: rule.destinationUrl, ruleId: rule.id, variant: null }),
    };
  });
  const needsClock = rules.some((rule) => rule.weekdays !== ALL_WEEKDAYS || rule.hoursFrom !== NO_HOURS);
  return {
    codeId,
    rules,
    splitByBucket: routing.split ? splitTable(routing.split) : null,
    salt: codeSalt(codeId),
    clock: needsClock ? new LocalClock(routing.timeZone) : null,
  };
}

function setOf(list: string[] | undefined): ReadonlySet<string> | null {
  return list === undefined ? null : new Set(list);
}

function instant(text: string, ruleId: string): number {
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`routing rule ${ruleId} has an unreadable instant ${JSON.stringify(text)}`);
  return ms;
}

function weekdayMask(days: RoutingConditions['weekdays']): number {
  if (days === undefined) return ALL_WEEKDAYS;
  return days.reduce((mask, day) => {
    const index = WEEKDAYS.indexOf(day);
    if (index < 0) throw new Error(`unknown weekday ${JSON.stringify(day)}`);
    return mask | (1 << index);
  }, 0);
}

function compileHours(hours: RoutingConditions['hours'], ruleId: string): [number, number] {
  if (hours === undefined) return [NO_HOURS, NO_HOURS];
  const from = parseClockTime(hours.from);
  const until = parseClockTime(hours.until);
  if (from === undefined || until === undefined || from === until) {
    throw new Error(`routing rule ${ruleId} has unreadable hours ${JSON.stringify(hours)}`);
  }
  return [from, until];
}

/** 100 entries: bucket b answers with the variant whose cumulative weight first exceeds b. */
function splitTable(split: NonNullable<Routing['split']>): RouteDecision[] {
  const table: RouteDecision[] = [];
  split.forEach((variant, index) => {
    const decision = Object.freeze({ destinationUrl: variant.destinationUrl, ruleId: null, variant: index });
    for (let i = 0; i < variant.weight && table.length < 100; i++) table.push(decision);
  });
  if (table.length !== 100) throw new Error(`split weights add up to ${table.length}, not 100`);
  return table;
}
