import type { CodeType } from './code-type.js';
import { contentParser, dateTime, object, refine, text, timeZone, url } from './fields.js';

export interface EventContent {
  title: string;
  /** Local time in `timezone` (or UTC) unless written with an offset. */
  start: string;
  end?: string;
  timezone?: string;
  location?: string;
  description?: string;
  url?: string;
}

const shape = refine(
  object(
    {
      title: text(200),
      start: dateTime,
      end: dateTime,
      timezone: timeZone,
      location: text(500, { multiline: true }),
      description: text(2000, { multiline: true }),
      url,
    },
    ['title', 'start'],
  ),
  // Compared as written: both in the same zone unless the user wrote offsets, which Date.parse honours.
  (e) => (e.end !== undefined && Date.parse(e.end) < Date.parse(e.start) ? { path: '/end', message: 'must not be before start' } : undefined),
);

export const eventType: CodeType<EventContent> = { type: 'EVENT', kind: 'page', parse: contentParser(shape) };
