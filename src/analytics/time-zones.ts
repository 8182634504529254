import { currentZoneName } from '../time-zone-names.js';

/** The zone used when the viewer's is missing or not one we accept. */
export const FALLBACK_TIME_ZONE = 'UTC';

/**
 * IANA names only (`Europe/Berlin`, `America/Argentina/Buenos_Aires`, `Etc/GMT+5`, `UTC`). Offsets such as `+05:30`
 * are refused on purpose: PostgreSQL reads a bare offset as a POSIX zone, whose sign is the opposite of ISO 8601.
 */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const MAX_NAME_LENGTH = 64;

/**
 * The viewer's time zone if Intl knows it, else UTC. Spelling is kept (Intl would turn `Asia/Kolkata` into the
 * older `Asia/Calcutta`), except the letter case, which Intl corrects (`europe/berlin` → `Europe/Berlin`), and
 * renamed zones, which get their current names: a browser reports `Asia/Calcutta`, people know `Asia/Kolkata`.
 */
export function resolveTimeZone(name: string | null | undefined): string {
  const trimmed = name?.trim() ?? '';
  if (trimmed === '' || trimmed.length > MAX_NAME_LENGTH || !IANA_NAME.test(trimmed)) return FALLBACK_TIME_ZONE;
  let canonical: string;
  try {
    canonical = new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
  } catch {
    return FALLBACK_TIME_ZONE;
  }
  const current = currentZoneName(canonical);
  const lower = trimmed.toLowerCase();
  return canonical.toLowerCase() === lower || current.toLowerCase() === lower ? current : currentZoneName(trimmed);
}

/** Minutes east of UTC in `timeZone` at `at` (Berlin in summer: 120; St. John's in winter: -210). */
export function utcOffsetMinutes(timeZone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((part) => part.type === 'timeZoneName')?.value;
  // "GMT" alone is UTC; otherwise "GMT+05:30" or "GMT-03:30".
  const match = /^GMT(?:([+-])(\d{2}):(\d{2}))?$/.exec(name ?? '');
  if (!match) throw new Error(`cannot read the UTC offset of ${timeZone} (${name})`);
  if (!match[1]) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return match[1] === '-' ? -minutes : minutes;
}

/**
 * Whether local days start on a whole UTC hour at every instant given. The rollup counts scans per UTC hour, so in
 * zones offset by a fraction of an hour (India +5:30, Nepal +5:45, Newfoundland -3:30, parts of Australia) a
 * day, week or month bucket starts at the first whole UTC hour after local midnight (00:30 or 00:45 local time).
 */
export function hasWholeHourOffsets(timeZone: string, instants: readonly Date[]): boolean {
  return instants.every((at) => utcOffsetMinutes(timeZone, at) % 60 === 0);
}

/**
 * PostgreSQL's zone database can lag behind the one Intl ships (a zone added last year): such a name passes
 * `resolveTimeZone` and is refused by the query. Callers then answer in UTC rather than failing the page.
 */
export function isUnknownTimeZoneError(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '22023' && typeof message === 'string' && message.includes('time zone');
}

/** Runs `query` in `timeZone`, or in UTC when PostgreSQL does not know that zone. */
export async function inTimeZone<T>(timeZone: string, query: (timeZone: string) => Promise<T>): Promise<T> {
  try {
    return await query(timeZone);
  } catch (error) {
    if (timeZone === FALLBACK_TIME_ZONE || !isUnknownTimeZoneError(error)) throw error;
    return query(FALLBACK_TIME_ZONE);
  }
}
