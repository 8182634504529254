import { COUNTRY_CODES } from './country-codes.js';
import { DEVICE_CLASSES } from './device-classes.js';
import { formatInstant, parseInstant } from './instants.js';
import { WEEKDAYS, type RoutingConditions, type Weekday } from './model.js';
import { isPlainObject, pointer, refuseUnknownKeys, type Problems } from './problems.js';
import { parseClockTime } from './wall-clock.js';

export const CONDITION_KEYS = ['os', 'browsers', 'devices', 'countries', 'languages', 'from', 'until', 'weekdays', 'hours'] as const;

/** A list longer than this is a mistake (there are 250 countries); it also bounds a rule's size in the code cache. */
const MAX_LIST_LENGTH = 250;
/**
 * OS and browser names as ua-parser-js writes them: letters, digits, spaces and a few signs, at most 64 long (scans
 * store names cut to 64, src/redirect/user-agent.ts). The same test as analytics' filters (src/analytics/scan-filters.ts).
 */
const SOFTWARE_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._+()/-]{0,63}$/u;

/** How one entry of a list condition is read: its normal form, or why it is refused. */
type EntryReader = (entry: string) => { ok: true; value: string } | { ok: false; message: string };

const DEVICE_SET: ReadonlySet<string> = new Set(DEVICE_CLASSES);

/**
 * OS and browser names: no canonical list exists (ua-parser-js 1.x exports none, and its names grow with each
 * release), so any name a scan could record is accepted as given, trimmed; case matters, as in the scans list.
 */
const softwareName: EntryReader = (entry) => {
  const name = entry.trim();
  return SOFTWARE_NAME.test(name)
    ? { ok: true, value: name }
    : { ok: false, message: 'must be a name as scans record it (letters, digits, spaces, ._+()/-; at most 64 characters), such as iOS or Mobile Safari' };
};

const device: EntryReader = (entry) => {
  const value = entry.trim().toLowerCase();
  return DEVICE_SET.has(value) ? { ok: true, value } : { ok: false, message: `must be one of ${DEVICE_CLASSES.join(', ')}` };
};

const country: EntryReader = (entry) => {
  const value = entry.trim().toUpperCase();
  return COUNTRY_CODES.has(value)
    ? { ok: true, value }
    : { ok: false, message: 'must be an ISO 3166-1 alpha-2 country code that exists, such as DE or US' };
};

/** Scans record the primary subtag of the first Accept-Language entry (src/audience/language.ts): so do rules. */
const language: EntryReader = (entry) => {
  const tag = entry.trim();
  if (/^[A-Za-z]{2,3}[-_]/.test(tag)) {
    return { ok: false, message: `must be a language without region or script, such as ${tag.slice(0, tag.search(/[-_]/)).toLowerCase()} (scans record the language only)` };
  }
  const value = tag.toLowerCase();
  return /^[a-z]{2,3}$/.test(value) && value !== 'und'
    ? { ok: true, value }
    : { ok: false, message: 'must be a language code (ISO 639) of 2 or 3 letters, such as de or en' };
};

const weekday: EntryReader = (entry) => {
  const value = entry.trim().toLowerCase();
  return (WEEKDAYS as readonly string[]).includes(value) ? { ok: true, value } : { ok: false, message: `must be one of ${WEEKDAYS.join(', ')}` };
};

const LIST_READERS = { os: softwareName, browsers: softwareName, devices: device, countries: country, languages: language, weekdays: weekday };

/**
 * A rule's `when`, checked and normalised; problems are added at `at` (`/rules/3/when`) and below. Undefined when
 * anything was refused. A condition given as null counts as left out.
 */
export function parseConditions(input: unknown, at: string, problems: Problems): RoutingConditions | undefined {
  if (!isPlainObject(input)) {
    problems.push({ pointer: at, message: 'must be an object of conditions' });
    return undefined;
  }
  const before = problems.length;
  refuseUnknownKeys(input, CONDITION_KEYS, at, 'a condition', problems);
  const when: RoutingConditions = {};
  for (const key of ['os', 'browsers', 'devices', 'countries', 'languages', 'weekdays'] as const) {
    if (input[key] === undefined || input[key] === null) continue;
    const list = parseList(input[key], LIST_READERS[key], `${at}${pointer(key)}`, problems);
    if (list) (when as Record<string, string[]>)[key] = key === 'weekdays' ? sortWeekdays(list) : list;
  }
  parseWindow(input, at, when, problems);
  const hours = parseHours(input.hours, `${at}/hours`, problems);
  if (hours) when.hours = hours;
  if (problems.length === before && Object.keys(when).length === 0) {
    problems.push({ pointer: at, message: `must hold at least one condition (${CONDITION_KEYS.join(', ')}); for every scan, change the code's own destinationUrl` });
  }
  return problems.length === before ? when : undefined;
}

function parseList(input: unknown, read: EntryReader, at: string, problems: Problems): string[] | undefined {
  if (!Array.isArray(input)) {
    problems.push({ pointer: at, message: 'must be a list' });
    return undefined;
  }
  if (input.length === 0) {
    problems.push({ pointer: at, message: 'must not be empty; leave the condition out to match every scan' });
    return undefined;
  }
  if (input.length > MAX_LIST_LENGTH) {
    problems.push({ pointer: at, message: `must have at most ${MAX_LIST_LENGTH} entries` });
    return undefined;
  }
  const values = new Set<string>();
  const before = problems.length;
  input.forEach((entry, index) => {
    const result = typeof entry === 'string' ? read(entry) : ({ ok: false, message: 'must be a string' } as const);
    if (result.ok) values.add(result.value);
    else problems.push({ pointer: `${at}/${index}`, message: result.message });
  });
  return problems.length === before ? [...values] : undefined;
}

function sortWeekdays(days: string[]): Weekday[] {
  return WEEKDAYS.filter((day) => days.includes(day));
}

function parseWindow(input: Record<string, unknown>, at: string, when: RoutingConditions, problems: Problems): void {
  let fromMs: number | undefined;
  let untilMs: number | undefined;
  for (const key of ['from', 'until'] as const) {
    if (input[key] === undefined || input[key] === null) continue;
    const instant = parseInstant(input[key]);
    if (!instant.ok) {
      problems.push({ pointer: `${at}/${key}`, message: instant.message });
      continue;
    }
    when[key] = formatInstant(instant.ms);
    if (key === 'from') fromMs = instant.ms;
    else untilMs = instant.ms;
  }
  if (fromMs !== undefined && untilMs !== undefined && untilMs <= fromMs) {
    problems.push({ pointer: `${at}/until`, message: 'must be after from' });
  }
}

function parseHours(input: unknown, at: string, problems: Problems): RoutingConditions['hours'] | undefined {
  if (input === undefined || input === null) return undefined;
  if (!isPlainObject(input)) {
    problems.push({ pointer: at, message: 'must be an object { "from": "HH:MM", "until": "HH:MM" }' });
    return undefined;
  }
  const before = problems.length;
  refuseUnknownKeys(input, ['from', 'until'], at, 'a field of hours', problems);
  const minutes: number[] = [];
  for (const key of ['from', 'until'] as const) {
    const value = parseClockTime(input[key]);
    if (value !== undefined) minutes.push(value);
    else if (input[key] === undefined) problems.push({ pointer: `${at}/${key}`, message: 'is required (local time HH:MM)' });
    else if (input[key] === '24:00') problems.push({ pointer: `${at}/${key}`, message: 'must be 00:00 to 23:59; a window to midnight ends at 00:00' });
    else problems.push({ pointer: `${at}/${key}`, message: 'must be a local time HH:MM from 00:00 to 23:59, such as 18:30' });
  }
  if (problems.length > before) return undefined;
  if (minutes[0] === minutes[1]) {
    problems.push({ pointer: `${at}/until`, message: 'must differ from hours.from (leave hours out for the whole day)' });
    return undefined;
  }
  return { from: input.from as string, until: input.until as string };
}
