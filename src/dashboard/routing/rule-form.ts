import { DEVICE_CLASSES, WEEKDAYS, type RoutingRule } from '../../routing/index.js';
import { entriesOf, formList, kept, clockText } from './form-values.js';
import { instantToLocal, localToInstant } from './zoned-time.js';

/** OS names offered as checkboxes: what ua-parser-js records for nearly every phone and computer. */
export const COMMON_OS = ['iOS', 'Android', 'Windows', 'Mac OS', 'Linux', 'Chromium OS'] as const;

/** A rule's form as typed (shown again when refused) or as stored. */
export interface RuleFormValues {
  name: string;
  os: string[];
  osOther: string;
  browsers: string;
  devices: string[];
  countries: string;
  languages: string;
  from: string;
  until: string;
  weekdays: string[];
  hoursFrom: string;
  hoursUntil: string;
  destinationUrl: string;
}

export type RuleField = keyof RuleFormValues | 'conditions' | 'zone';

/** A sentence per field at fault; `conditions` is about the rule's conditions as a whole. */
export type RuleFormErrors = Partial<Record<RuleField, string>>;

export const EMPTY_RULE: RuleFormValues = {
  name: '', os: [], osOther: '', browsers: '', devices: [], countries: '', languages: '', from: '', until: '', weekdays: [],
  hoursFrom: '', hoursUntil: '', destinationUrl: '',
};

/** A stored rule in the form, its instants in the routing's zone. */
export function ruleFormValues(rule: RoutingRule, timeZone: string): RuleFormValues {
  const { when } = rule;
  const common = new Set<string>(COMMON_OS);
  return {
    name: rule.name ?? '',
    os: (when.os ?? []).filter((os) => common.has(os)),
    osOther: (when.os ?? []).filter((os) => !common.has(os)).join(', '),
    browsers: (when.browsers ?? []).join(', '),
    devices: when.devices ?? [],
    countries: (when.countries ?? []).join(', '),
    languages: (when.languages ?? []).join(', '),
    from: when.from ? instantToLocal(new Date(when.from), timeZone) : '',
    until: when.until ? instantToLocal(new Date(when.until), timeZone) : '',
    weekdays: when.weekdays ?? [],
    hoursFrom: when.hours?.from ?? '',
    hoursUntil: when.hours?.until ?? '',
    destinationUrl: rule.destinationUrl,
  };
}

/** The rule as the API's RoutingInput has it (checked by parseRouting when saved), or the form's own problems. */
export type ReadRule =
  | { ok: true; values: RuleFormValues; rule: { name?: string; when: Record<string, unknown>; destinationUrl: string } }
  | { ok: false; values: RuleFormValues; errors: RuleFormErrors };

const DEVICES: ReadonlySet<string> = new Set(DEVICE_CLASSES);
const DAYS: ReadonlySet<string> = new Set(WEEKDAYS);

/**
 * Reads the rule form. Lists are split at commas and spaces; the datetime-local fields are read in `timeZone`, the
 * routing's (what the page showed them in). Everything else is left for parseRouting to check, so the dashboard
 * refuses what the API refuses, with the same sentences.
 */
export function readRuleForm(body: unknown, timeZone: string): ReadRule {
  const values: RuleFormValues = {
    name: kept(body, 'name', 400),
    os: formList(body, 'os').slice(0, 50).map((os) => os.slice(0, 100)),
    osOther: kept(body, 'osOther'),
    browsers: kept(body, 'browsers'),
    devices: formList(body, 'devices').filter((device) => DEVICES.has(device)),
    countries: kept(body, 'countries'),
    languages: kept(body, 'languages'),
    from: kept(body, 'from', 100),
    until: kept(body, 'until', 100),
    weekdays: formList(body, 'weekdays').filter((day) => DAYS.has(day)),
    hoursFrom: clockText(kept(body, 'hoursFrom', 100)),
    hoursUntil: clockText(kept(body, 'hoursUntil', 100)),
    destinationUrl: kept(body, 'destinationUrl', 4200).trim(),
  };
  const errors: RuleFormErrors = {};
  const when: Record<string, unknown> = {};
  const os = [...values.os, ...entriesOf(values.osOther)];
  if (os.length > 0) when.os = os;
  for (const key of ['browsers', 'countries', 'languages'] as const) {
    const entries = key === 'browsers' ? values.browsers.split(',').map((entry) => entry.trim()).filter(Boolean) : entriesOf(values[key]);
    if (entries.length > 0) when[key] = entries;
  }
  if (values.devices.length > 0) when.devices = values.devices;
  if (values.weekdays.length > 0) when.weekdays = values.weekdays;
  for (const key of ['from', 'until'] as const) {
    const text = values[key].trim();
    if (text === '') continue;
    const instant = localToInstant(text, timeZone);
    if (instant) when[key] = instant.toISOString();
    else errors[key] = `${key === 'from' ? 'From' : 'Until'} must be a date and time, such as 2026-12-01 09:00.`;
  }
  if (values.hoursFrom !== '' || values.hoursUntil !== '') {
    if (values.hoursFrom === '') errors.hoursFrom = 'Hours from is needed with hours until (leave both empty for the whole day).';
    else if (values.hoursUntil === '') errors.hoursUntil = 'Hours until is needed with hours from (leave both empty for the whole day).';
    else when.hours = { from: values.hoursFrom, until: values.hoursUntil };
  }
  if (values.destinationUrl === '') errors.destinationUrl = 'The destination URL is needed: where scans that match this rule go.';
  if (Object.keys(errors).length > 0) return { ok: false, values, errors };
  const name = values.name.trim();
  return { ok: true, values, rule: { ...(name !== '' && { name }), when, destinationUrl: values.destinationUrl } };
}

const FIELD_LABELS: Record<string, [RuleField, string]> = {
  name: ['name', 'The name'],
  destinationUrl: ['destinationUrl', 'The destination URL'],
  os: ['osOther', 'Operating systems'],
  browsers: ['browsers', 'Browsers'],
  devices: ['devices', 'Devices'],
  countries: ['countries', 'Countries'],
  languages: ['languages', 'Languages'],
  from: ['from', 'From'],
  until: ['until', 'Until'],
  weekdays: ['weekdays', 'Weekdays'],
  hours: ['hoursFrom', 'Hours'],
  'hours/from': ['hoursFrom', 'Hours from'],
  'hours/until': ['hoursUntil', 'Hours until'],
};

/**
 * The service's problems (pointers such as `/body/routing/rules/2/when/hours/from`) on this rule's fields; those
 * about the routing as a whole (too many rules, a rule removed meanwhile) are returned as `general`.
 * An entry of a list ("/countries/1") names the entry, since one field holds them all.
 */
export function ruleErrors(
  details: ReadonlyArray<{ path: string; message: string }>,
  index: number,
  entries: { os: string[]; browsers: string[]; countries: string[]; languages: string[] },
): { errors: RuleFormErrors; general: string[] } {
  const errors: RuleFormErrors = {};
  const general: string[] = [];
  const prefix = `/body/routing/rules/${index}`;
  for (const { path, message } of details) {
    if (!path.startsWith(`${prefix}/`) && path !== prefix) {
      general.push(message);
      continue;
    }
    const rest = path.slice(prefix.length + 1);
    if (rest === 'when' || rest === '') {
      errors.conditions ??= message.startsWith('must hold at least one condition')
        ? 'Fill in at least one condition below (for every scan, change the code’s own destination instead).'
        : `The conditions ${message}.`;
      continue;
    }
    if (rest === 'id') {
      general.push('This rule was removed meanwhile (by someone else, or in another tab): add it again as a new rule.');
      continue;
    }
    const path2 = rest.startsWith('when/') ? rest.slice(5) : rest;
    const listMatch = /^(os|browsers|countries|languages|devices|weekdays)\/(\d+)$/.exec(path2);
    const key = listMatch ? listMatch[1]! : path2;
    const known = FIELD_LABELS[key];
    if (!known) {
      general.push(message);
      continue;
    }
    const [field, label] = known;
    const entry = listMatch && (entries as Record<string, string[] | undefined>)[listMatch[1]!]?.[Number(listMatch[2])];
    errors[field] ??= entry !== undefined && entry !== null ? `${label}: “${entry}” ${message}.` : `${label} ${message}.`;
  }
  return { errors, general };
}
