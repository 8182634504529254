/**
 * datetime-local fields read and shown in the routing's time zone: a rule's `from`/`until` and the schedule are
 * instants, but people enter "1 December, 09:00 in Berlin". Local → instant takes the zone's offset at that moment
 * (found with Intl, and checked once more for times near a daylight-saving change, as src/landing/icalendar.ts does).
 */

const LOCAL_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

function partsFormat(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
}

/** The wall clock of `timeZone` at `ms`, as epoch milliseconds of the same digits in UTC. */
function wallClockMs(format: Intl.DateTimeFormat, ms: number): number {
  const parts = format.formatToParts(ms);
  const get = (type: string) => Number(parts.find((part) => part.type === type)?.value);
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
}

/**
 * The instant a datetime-local value names in `timeZone`, or undefined when it is not a date and time that exists
 * (30 February, 25:00, a year before 1000 or after 9999). A time skipped by a spring-forward change reads as the
 * instant an hour later, as a clock set forward shows it.
 */
export function localToInstant(value: string, timeZone: string): Date | undefined {
  const match = LOCAL_DATE_TIME.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map((part) => Number(part ?? 0)) as [number, number, number, number, number, number];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(asUtc).getUTCDate() !== day) return undefined;
  const format = partsFormat(timeZone);
  const offsetAt = (at: number) => wallClockMs(format, at) - Math.floor(at / 1000) * 1000;
  let instant = asUtc - offsetAt(asUtc);
  instant = asUtc - offsetAt(instant);
  return new Date(instant);
}

/** `2026-12-01T09:00`: what a datetime-local field shows for `at` in `timeZone`. */
export function instantToLocal(at: Date, timeZone: string): string {
  return new Date(wallClockMs(partsFormat(timeZone), at.getTime())).toISOString().slice(0, 16);
}
