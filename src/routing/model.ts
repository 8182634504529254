/**
 * Routing: one printed code, many destinations (issue 28). A code's `routing` is stored and served as this shape,
 * after parseRouting (parse-routing.ts) has checked and normalised what a client sent; the redirect compiles it
 * once per cached code (compile-routing.ts) and asks it per scan (evaluate-routing.ts).
 */

/** ISO weekday names, Monday first (ISO 8601's order, and analytics' week-hours matrix). */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Routing {
  /** IANA zone (`Europe/Berlin`) in which `weekdays` and `hours` are read; `UTC` when none was given. */
  timeZone: string;
  /** At most MAX_RULES, tried in order: the first whose every condition holds decides. */
  rules: RoutingRule[];
  /** When no rule matches: at least two destinations whose integer weights (1–100) add up to 100. */
  split?: SplitVariant[];
}

export interface RoutingRule {
  /** Given by the server (`newRuleId`), kept across updates that send it back; scans record it as `ruleId`. */
  id: string;
  /** For people: at most 100 characters. */
  name?: string;
  /** At least one condition; the rule matches when all of them hold. */
  when: RoutingConditions;
  destinationUrl: string;
}

/**
 * Each condition left out holds for every scan. A list holds when the scan's value is one of its entries (a scan
 * without that value, such as an unknown country, never matches a list). Normalised by parseRouting: countries upper
 * case, languages and devices lower case, instants in UTC (`toISOString`), weekdays lower case, without duplicates.
 */
export interface RoutingConditions {
  /** Operating system names as scans record them (ua-parser-js: `iOS`, `Android`, `Windows`, `Mac OS`); case matters. */
  os?: string[];
  /** Browser names as scans record them (`Mobile Safari`, `Chrome`, `Samsung Browser`); case matters. */
  browsers?: string[];
  /** Device classes (DEVICE_CLASSES: `mobile`, `tablet`, `desktop`, ...). */
  devices?: string[];
  /** ISO 3166-1 alpha-2 (`DE`), as the scan's `country`. */
  countries?: string[];
  /** Primary language subtags (`de`), as the scan's `language`. */
  languages?: string[];
  /** Instant the rule starts to hold (inclusive). */
  from?: string;
  /** Instant it stops (exclusive); after `from` when both are given. */
  until?: string;
  /** Local weekdays in `Routing.timeZone`; with a window in `hours` that wraps past midnight, the day it started. */
  weekdays?: Weekday[];
  /** Local wall-clock window `HH:MM`, `until` exclusive; `until` before `from` wraps past midnight (18:00–02:00). */
  hours?: { from: string; until: string };
}

export interface SplitVariant {
  destinationUrl: string;
  /** Integer 1–100; a split's weights add up to 100, so each weight is the variant's share in percent. */
  weight: number;
}

export const MAX_RULES = 20;
export const MAX_RULE_NAME_LENGTH = 100;

/** What parseRouting refuses: `pointer` is a JSON pointer into the routing object (`/rules/3/when/hours/from`). */
export interface RoutingProblem {
  pointer: string;
  message: string;
}

/** How one scan was routed: recorded with the scan (`ruleId`, `variant`) and followed by the redirect. */
export interface RouteDecision {
  readonly destinationUrl: string;
  /** The rule that matched, or null when the split decided. */
  readonly ruleId: string | null;
  /** Index into `split` when the split decided, else null. */
  readonly variant: number | null;
}

/** What the redirect knows about one scan, as the scan record has it. */
export interface ScanFacts {
  os: string | null;
  browser: string | null;
  device: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string | null;
  /** Primary subtag, lower case. */
  language: string | null;
  /** When, in epoch milliseconds. */
  at: number;
  /** The day's visitor hash (32 hex digits, src/audience/visitor-hash.ts), or null when not known. */
  visitor: string | null;
}
