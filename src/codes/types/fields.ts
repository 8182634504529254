import { isInvisibleOnly, multiLineTextProblem, singleLineTextProblem } from '../../text-rules.js';
import { parseDestinationUrl } from '../../destination-url.js';
import { currentZoneName } from '../../time-zone-names.js';

/** Where a content field is at fault, as a JSON pointer into the content (`/links/0/url`), and why. */
export interface ContentProblem {
  path: string;
  message: string;
}

export type ContentResult<T> = { ok: true; content: T } | { ok: false; problems: ContentProblem[] };

/** Reads one value at `path`; reports what is wrong into `problems` and returns undefined then. */
export type Field<T> = (value: unknown, path: string, problems: ContentProblem[]) => T | undefined;

type Shape = Record<string, Field<unknown>>;
type Valued<F> = F extends Field<infer T> ? T : never;
type Optional<S extends Shape, R extends keyof S> = { [K in Exclude<keyof S, R>]?: Valued<S[K]> };
export type ObjectOf<S extends Shape, R extends keyof S> = { [K in R]: Valued<S[K]> } & Optional<S, R>;


/**
 * A strict object: unknown keys refused, required keys present, every problem reported at once (a form marks
 * each field). Absent optional fields, `null` and blank strings are left out of the result, so stored content
 * holds only what was given.
 */
export function object<S extends Shape, R extends keyof S & string>(shape: S, required: readonly R[]): Field<ObjectOf<S, R>> {
  return (value, path, problems) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push({ path: path || '/', message: 'must be an object' });
      return undefined;
    }
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const before = problems.length;
    for (const key of Object.keys(input)) {
      if (!Object.hasOwn(shape, key)) problems.push({ path: `${path}/${key}`, message: 'is not a known field' });
    }
    for (const [key, field] of Object.entries(shape)) {
      const raw = input[key];
      const blank = raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
      if (blank) {
        if ((required as readonly string[]).includes(key)) problems.push({ path: `${path}/${key}`, message: 'is required' });
        continue;
      }
      const parsed = field(raw, `${path}/${key}`, problems);
      if (parsed !== undefined) out[key] = parsed;
    }
    return problems.length === before ? (out as ObjectOf<S, R>) : undefined;
  };
}

/** A whole content document: the top-level object of a type. */
export function contentParser<T>(field: Field<T>): (input: unknown) => ContentResult<T> {
  return (input) => {
    const problems: ContentProblem[] = [];
    const content = field(input, '', problems);
    return content === undefined || problems.length > 0 ? { ok: false, problems } : { ok: true, content };
  };
}

/** Trimmed text of 1–`max` characters (code points, as the API's name rule counts them). */
export function text(max: number, options: { multiline?: boolean } = {}): Field<string> {
  // Multi-line text keeps \n and \t; both refuse what PostgreSQL or XML cannot carry (src/text-rules.ts).
  const textProblem = options.multiline ? multiLineTextProblem : singleLineTextProblem;
  return (value, path, problems) => {
    if (typeof value !== 'string') return fail(problems, path, 'must be a string');
    // Line ends are kept as \n only: pages and vCard/iCalendar escaping then have one form to handle.
    const trimmed = value.replace(/\r\n?/g, '\n').trim();
    if (trimmed === '' || isInvisibleOnly(trimmed)) return fail(problems, path, 'must not be blank');
    if ([...trimmed].length > max) return fail(problems, path, `must be at most ${max} characters`);
    const problem = textProblem(trimmed);
    if (problem !== undefined) return fail(problems, path, problem);
    return trimmed;
  };
}

/** An absolute http(s) URL, normalized, by the same rule as a URL code's destination. */
export const url: Field<string> = (value, path, problems) => {
  if (typeof value !== 'string') return fail(problems, path, 'must be a string');
  const parsed = parseDestinationUrl(value.trim());
  return parsed.ok ? parsed.href : fail(problems, path, parsed.message);
};

/** A URL whose host is one of `hosts` or a subdomain of one (www.facebook.com, m.facebook.com). */
export function urlOn(hosts: readonly string[], label: string): Field<string> {
  return (value, path, problems) => {
    const href = url(value, path, problems);
    if (href === undefined) return undefined;
    const host = new URL(href).hostname;
    return hosts.some((h) => host === h || host.endsWith(`.${h}`)) ? href : fail(problems, path, `must be a ${label} address`);
  };
}

// Deliberately loose (RFC 5322 allows far more), but enough to refuse what a mailto: or a vCard would break on.
const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:".]+$/;

export const email: Field<string> = (value, path, problems) => {
  if (typeof value !== 'string') return fail(problems, path, 'must be a string');
  const trimmed = value.trim();
  // 254: the longest address SMTP can carry (RFC 5321 path limit less the angle brackets).
  if (trimmed.length > 254 || !EMAIL.test(trimmed)) return fail(problems, path, 'must be an email address');
  return trimmed;
};

// Digits with the usual separators and an optional leading +; E.164 allows at most 15 digits.
const PHONE = /^\+?[0-9 ().\-/]+$/;

export const phone: Field<string> = (value, path, problems) => {
  if (typeof value !== 'string') return fail(problems, path, 'must be a string');
  const trimmed = value.trim().replace(/\s+/g, ' ');
  const digits = trimmed.replace(/\D/g, '').length;
  if (!PHONE.test(trimmed) || digits < 3 || digits > 15 || trimmed.length > 32) {
    return fail(problems, path, 'must be a phone number (digits, spaces, + ( ) - . /)');
  }
  return trimmed;
};

export const boolean: Field<boolean> = (value, path, problems) =>
  typeof value === 'boolean' ? value : fail(problems, path, 'must be true or false');

export function oneOf<const V extends string>(values: readonly V[]): Field<V> {
  return (value, path, problems) =>
    typeof value === 'string' && (values as readonly string[]).includes(value)
      ? (value as V)
      : fail(problems, path, `must be one of ${values.join(', ')}`);
}

// ISO 8601 with a date and a time; an offset is optional (then the event's time zone applies).
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A date and time as written (`2026-12-01T18:30`, or with `Z`/an offset); it must name a real instant. */
export const dateTime: Field<string> = (value, path, problems) => {
  if (typeof value !== 'string' || !DATE_TIME.test(value.trim()) || Number.isNaN(Date.parse(value.trim()))) {
    return fail(problems, path, 'must be a date and time like 2026-12-01T18:30');
  }
  return value.trim();
};

/** An IANA time zone name the runtime knows (Europe/Berlin). */
export const timeZone: Field<string> = (value, path, problems) => {
  if (typeof value !== 'string' || value.length > 64) return fail(problems, path, 'must be a time zone like Europe/Berlin');
  try {
    // The canonical spelling (names are matched case-insensitively), so stored content has one form; renamed zones
    // by their current names (Intl answers Asia/Calcutta for Asia/Kolkata).
    return currentZoneName(new Intl.DateTimeFormat('en', { timeZone: value.trim() }).resolvedOptions().timeZone);
  } catch {
    return fail(problems, path, 'must be a time zone like Europe/Berlin');
  }
};

const TIME_OF_DAY = /^([01]\d|2[0-3]):[0-5]\d$/;

export const timeOfDay: Field<string> = (value, path, problems) =>
  typeof value === 'string' && (TIME_OF_DAY.test(value) || value === '24:00') ? value : fail(problems, path, 'must be a time like 09:30');

// Files are uploaded in the dashboard and named by opaque ids; this bounds the id so nothing odd reaches a URL.
const FILE_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const fileId: Field<string> = (value, path, problems) =>
  typeof value === 'string' && FILE_ID.test(value) ? value : fail(problems, path, 'must be a file id');

/** A list of `min`–`max` items, each read by `item`. */
export function list<T>(item: Field<T>, bounds: { min?: number; max: number }): Field<T[]> {
  const min = bounds.min ?? 0;
  return (value, path, problems) => {
    if (!Array.isArray(value)) return fail(problems, path, 'must be a list');
    if (value.length < min) return fail(problems, path, `must have at least ${min} item${min === 1 ? '' : 's'}`);
    if (value.length > bounds.max) return fail(problems, path, `must have at most ${bounds.max} items`);
    const before = problems.length;
    const items = value.map((v, i) => item(v, `${path}/${i}`, problems));
    return problems.length === before ? (items as T[]) : undefined;
  };
}

/** Adds a rule across fields to an object (end after start, one of two given). */
export function refine<T>(field: Field<T>, check: (value: T) => ContentProblem | undefined): Field<T> {
  return (value, path, problems) => {
    const parsed = field(value, path, problems);
    if (parsed === undefined) return undefined;
    const problem = check(parsed);
    if (!problem) return parsed;
    problems.push({ path: `${path}${problem.path}`, message: problem.message });
    return undefined;
  };
}

function fail(problems: ContentProblem[], path: string, message: string): undefined {
  problems.push({ path, message });
  return undefined;
}
