import type { EventContent } from '../codes/types/index.js';
import { escapeCalendarText, foldLines } from './text-escaping.js';

const HAS_OFFSET = /(Z|[+-]\d{2}:\d{2})$/;

/**
 * The instant an event's time names: as written when it carries an offset, else local time in the event's zone
 * (UTC without one). Local → UTC takes the zone's offset at that moment, found with Intl and checked once more
 * for times near a daylight-saving change.
 */
export function eventInstant(written: string, timeZone: string | undefined): Date {
  if (HAS_OFFSET.test(written) || !timeZone) return new Date(HAS_OFFSET.test(written) ? written : `${written}Z`);
  const asUtc = Date.parse(`${written}Z`);
  let instant = asUtc - offsetMs(timeZone, asUtc);
  instant = asUtc - offsetMs(timeZone, instant);
  return new Date(instant);
}

function offsetMs(timeZone: string, at: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  const local = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return local - Math.floor(at / 1000) * 1000;
}

function utcStamp(date: Date): string {
  return date.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
}

/**
 * An iCalendar (RFC 5545) file with one event. Times are written in UTC, so no VTIMEZONE is needed and every
 * calendar shows them in its own zone.
 */
export function buildIcs(event: EventContent, uid: string, now: Date): string {
  const e = escapeCalendarText;
  const start = eventInstant(event.start, event.timezone);
  const lines = [
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//qroute//landing page//EN', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH',
    'BEGIN:VEVENT', `UID:${e(uid)}`, `DTSTAMP:${utcStamp(now)}`, `DTSTART:${utcStamp(start)}`,
  ];
  if (event.end) lines.push(`DTEND:${utcStamp(eventInstant(event.end, event.timezone))}`);
  lines.push(`SUMMARY:${e(event.title)}`);
  if (event.location) lines.push(`LOCATION:${e(event.location)}`);
  if (event.description) lines.push(`DESCRIPTION:${e(event.description)}`);
  if (event.url) lines.push(`URL:${event.url}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return foldLines(lines);
}
