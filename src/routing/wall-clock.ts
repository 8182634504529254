import { currentZoneName } from '../time-zone-names.js';

/** `HH:MM`, 00:00 to 23:59, two digits each: minutes since local midnight, or undefined. */
export function parseClockTime(raw: unknown): number | undefined {
  if (typeof raw !== 'string') return undefined;
  const match = /^(\d{2}):(\d{2})$/.exec(raw);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  return hours <= 23 && minutes <= 59 ? hours * 60 + minutes : undefined;
}

/** IANA names only: offsets (`+01:00`) and POSIX strings are not zones and have no DST rules. */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;
const MAX_ZONE_NAME_LENGTH = 64;

/**
 * A zone Intl knows, by its current name with its proper case (`europe/berlin` → `Europe/Berlin`, `Asia/Calcutta`
 * → `Asia/Kolkata`, `Etc/UTC` → `UTC`), or undefined. Intl is the judge because Intl reads the local time of every
 * scan (local-clock.ts): a name it does not know could never be evaluated.
 */
export function routingTimeZone(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw.length > MAX_ZONE_NAME_LENGTH || !IANA_NAME.test(raw)) return undefined;
  try {
    return currentZoneName(new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone);
  } catch {
    return undefined;
  }
}
