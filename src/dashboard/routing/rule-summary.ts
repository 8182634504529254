import { WEEKDAYS, type RoutingConditions, type Weekday } from '../../routing/index.js';

const WEEKDAY_NAMES: Record<Weekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

const DEVICE_NAMES: Record<string, string> = {
  mobile: 'phones', tablet: 'tablets', desktop: 'computers', smarttv: 'smart TVs', console: 'game consoles',
  wearable: 'wearables', embedded: 'embedded devices', unknown: 'unknown devices',
};

/** English names of countries and languages, for people (the codes stay in the form). */
const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const languageNames = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'code' });

export function countryName(code: string): string {
  try {
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

export function languageName(code: string): string {
  try {
    return languageNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * A rule's conditions as one line people read ("iOS · Germany, Austria · Sat–Sun 18:00–02:00"), in the order the
 * form asks for them. Instants are shown in the routing's zone.
 */
export function summariseConditions(when: RoutingConditions, timeZone: string): string {
  const parts: string[] = [];
  if (when.os) parts.push(when.os.join(', '));
  if (when.browsers) parts.push(when.browsers.join(', '));
  if (when.devices) parts.push(when.devices.map((device) => DEVICE_NAMES[device] ?? device).join(', '));
  if (when.countries) parts.push(when.countries.map(countryName).join(', '));
  if (when.languages) parts.push(when.languages.map(languageName).join(', '));
  if (when.from && when.until) parts.push(`${shownInstant(when.from, timeZone)} until ${shownInstant(when.until, timeZone)}`);
  else if (when.from) parts.push(`from ${shownInstant(when.from, timeZone)}`);
  else if (when.until) parts.push(`until ${shownInstant(when.until, timeZone)}`);
  const days = when.weekdays ? weekdayText(when.weekdays) : undefined;
  const hours = when.hours ? `${when.hours.from}–${when.hours.until}` : undefined;
  if (days || hours) parts.push([days, hours].filter(Boolean).join(' '));
  return parts.join(' · ');
}

/** Runs of days as ranges: "Mon–Fri", "Sat–Sun", "Mon, Wed, Fri". */
export function weekdayText(days: readonly Weekday[]): string {
  const indexes = days.map((day) => WEEKDAYS.indexOf(day)).sort((a, b) => a - b);
  const runs: number[][] = [];
  for (const index of indexes) {
    const run = runs.at(-1);
    if (run && run.at(-1) === index - 1) run.push(index);
    else runs.push([index]);
  }
  return runs
    .map((run) => {
      const first = WEEKDAY_NAMES[WEEKDAYS[run[0]!]!];
      const last = WEEKDAY_NAMES[WEEKDAYS[run.at(-1)!]!];
      if (run.length === 1) return first;
      return `${first}–${last}`;
    })
    .join(', ');
}

/** "1 Dec 2026, 09:00" in the routing's zone. */
export function shownInstant(iso: string | Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone,
  }).format(typeof iso === 'string' ? new Date(iso) : iso);
}
