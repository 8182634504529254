/**
 * RFC 3339 instants (ISO 8601 with a required offset): `2026-12-01T00:00:00+01:00`, `2026-12-01T09:00:00.5Z`.
 * Stricter than Date.parse, which rolls 30 February over into March and reads a time without offset as local time:
 * both would move a rule's start silently.
 */
const INSTANT = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const WITHOUT_OFFSET = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?$/;

export type InstantResult = { ok: true; ms: number } | { ok: false; message: string };

export function parseInstant(raw: unknown): InstantResult {
  const example = 'such as 2026-12-01T00:00:00+01:00 or 2026-11-30T23:00:00Z';
  if (typeof raw !== 'string') return { ok: false, message: `must be an instant as a string, ${example}` };
  const match = INSTANT.exec(raw);
  if (!match) {
    return WITHOUT_OFFSET.test(raw)
      ? { ok: false, message: `must end with its UTC offset (Z or +01:00), ${example}` }
      : { ok: false, message: `must be an ISO 8601 instant with its offset, ${example}` };
  }
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as number[] as [
    number, number, number, number, number, number,
  ];
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3));
  const offsetMinutes = match[8] ? 0 : (match[9] === '-' ? -1 : 1) * (Number(match[10]) * 60 + Number(match[11]));
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeapYear(year) ? 1 : 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 59) {
    return { ok: false, message: `is not a date and time that exists, ${example}` };
  }
  if (Number(match[10] ?? 0) > 23 || Number(match[11] ?? 0) > 59) return { ok: false, message: `has an offset that does not exist, ${example}` };
  // Date.UTC reads years 0–99 as 1900–1999; setting the year afterwards does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  return { ok: true, ms: date.getTime() - offsetMinutes * 60_000 };
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** How instants are stored and shown back: UTC, milliseconds, `Z` (what `createdAt` looks like everywhere). */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}
