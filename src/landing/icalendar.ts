import type { EventContent } from '../codes/types/index.js';
import { escapeCalendarText, foldLines } from './text-escaping.js';

const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

/** Milliseconds that local time in a zone is ahead of UTC at an instant (3,600,000 for Berlin in winter). */
type OffsetAt = (at: number) => number;

function offsetsIn(timeZone: string): OffsetAt {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  return (at) => {
    const parts = format.formatToParts(at);
    const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
    const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    return local - Math.floor(at / 1000) * 1000;
  };
}

/**
 * The instant an event's time names: as written when it carries an offset, else local time in the event's zone
 * (UTC without one). Local → UTC takes the zone's offset at that moment, found with Intl and checked once more
 * for times near a daylight-saving change.
 */
export function eventInstant(written: string, timeZone: string | undefined): Date {
  if (HAS_OFFSET.test(written) || !timeZone) return new Date(HAS_OFFSET.test(written) ? written : `${written}Z`);
  const offsetAt = offsetsIn(timeZone);
  const asUtc = Date.parse(`${written}Z`);
  let instant = asUtc - offsetAt(asUtc);
  instant = asUtc - offsetAt(instant);
  return new Date(instant);
}

/** `20261201T173000Z`; without the Z (`floating`), the digits are a local time. */
function stamp(ms: number, floating = false): string {
  const digits = new Date(ms).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}Z$/, '');
  return floating ? digits : `${digits}Z`;
}

function offsetText(ms: number): string {
  const sign = ms < 0 ? '-' : '+';
  const total = Math.abs(ms) / 1000;
  const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');
  const seconds = total % 60;
  return `${sign}${pad(total / 3600)}${pad((total % 3600) / 60)}${seconds ? pad(seconds) : ''}`;
}

interface Transition {
  at: number;
  before: number;
  after: number;
}

/** A year back covers the last change before the event in every zone that changes twice a year. */
const LOOK_BACK_MS = 400 * DAY_MS;
/** Events longer than this are written in UTC rather than scanned day by day for changes of offset. */
const MAX_ZONED_SPAN_MS = 2 * 366 * DAY_MS;

/** The changes of offset from a year before `from` until `to`, each to the millisecond. */
function transitions(offsetAt: OffsetAt, from: number, to: number): Transition[] {
  const found: Transition[] = [];
  let previous = from - LOOK_BACK_MS;
  let previousOffset = offsetAt(previous);
  // Day by day: no zone has changed its offset twice within a day.
  for (let t = previous + DAY_MS; previous < to; t += DAY_MS) {
    const at = Math.min(t, to);
    const offset = offsetAt(at);
    if (offset !== previousOffset) {
      let [low, high] = [previous, at];
      while (high - low > 1) {
        const middle = Math.floor((low + high) / 2);
        if (offsetAt(middle) === previousOffset) low = middle;
        else high = middle;
      }
      found.push({ at: high, before: previousOffset, after: offset });
    }
    [previous, previousOffset] = [at, offset];
  }
  return found;
}

/**
 * The zone's definition for the event's span (RFC 5545 §3.6.5), from the offsets Intl knows: one observance per
 * change of offset from a year before the start to the end (a change forward is DAYLIGHT, back STANDARD), each
 * starting at its local time before the change; a zone without changes is one STANDARD observance.
 */
function vtimezone(timeZone: string, offsetAt: OffsetAt, from: number, to: number): string[] {
  const changes = transitions(offsetAt, from, to);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  const observance = (kind: 'STANDARD' | 'DAYLIGHT', onsetLocal: number, before: number, after: number) => {
    lines.push(`BEGIN:${kind}`, `DTSTART:${stamp(onsetLocal, true)}`, `TZOFFSETFROM:${offsetText(before)}`, `TZOFFSETTO:${offsetText(after)}`, `END:${kind}`);
  };
  if (changes.length === 0 || changes[0]!.at > from) {
    // The offset in force at the start, from before the changes found (1970: the usual "since ever").
    const initial = changes[0]?.before ?? offsetAt(from);
    observance('STANDARD', 0, initial, initial);
  }
  for (const change of changes) observance(change.after > change.before ? 'DAYLIGHT' : 'STANDARD', change.at + change.before, change.before, change.after);
  lines.push('END:VTIMEZONE');
  return lines;
}

/**
 * An iCalendar (RFC 5545) file with one event. An event with a time zone is written in it (`DTSTART;TZID=…`
 * with the zone's VTIMEZONE), so a calendar shows the zone it happens in and converts to its own; one without
 * (or longer than two years) is written in UTC, which needs no VTIMEZONE.
 */
export function buildIcs(event: EventContent, uid: string, now: Date): string {
  const e = escapeCalendarText;
  const start = eventInstant(event.start, event.timezone).getTime();
  const end = event.end ? eventInstant(event.end, event.timezone).getTime() : undefined;
  const zoned = event.timezone !== undefined && event.timezone !== 'UTC' && (end ?? start) - start <= MAX_ZONED_SPAN_MS;
  const offsetAt = zoned ? offsetsIn(event.timezone!) : undefined;
  const time = (name: string, at: number) =>
    offsetAt ? `${name};TZID=${event.timezone}:${stamp(at + offsetAt(at), true)}` : `${name}:${stamp(at)}`;
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//qroute//landing page//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH'];
  if (offsetAt) lines.push(...vtimezone(event.timezone!, offsetAt, start, end ?? start));
  lines.push('BEGIN:VEVENT', `UID:${e(uid)}`, `DTSTAMP:${stamp(now.getTime())}`, time('DTSTART', start));
  if (end !== undefined) lines.push(time('DTEND', end));
  lines.push(`SUMMARY:${e(event.title)}`);
  if (event.location) lines.push(`LOCATION:${e(event.location)}`);
  if (event.description) lines.push(`DESCRIPTION:${e(event.description)}`);
  if (event.url) lines.push(`URL:${event.url}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return foldLines(lines);
}
