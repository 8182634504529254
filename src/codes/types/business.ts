import type { CodeType } from './code-type.js';
import { contentParser, email, list, object, phone, refine, text, timeOfDay, url } from './fields.js';

export const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface OpeningInterval {
  opens: string;
  closes: string;
}

export interface BusinessContent {
  name: string;
  description?: string;
  /** A weekday left out (or with no intervals) is closed; several intervals allow a lunch break. */
  openingHours?: Partial<Record<Weekday, OpeningInterval[]>>;
  address?: string;
  phone?: string;
  email?: string;
  website?: string;
}

// "HH:MM" compares correctly as text.
const interval = refine(object({ opens: timeOfDay, closes: timeOfDay }, ['opens', 'closes']), (i) =>
  i.closes > i.opens ? undefined : { path: '/closes', message: 'must be after opens' },
);
const day = list(interval, { max: 4 });
const openingHours = object(Object.fromEntries(WEEKDAYS.map((d) => [d, day])) as Record<Weekday, typeof day>, []);

const shape = object(
  {
    name: text(200),
    description: text(2000, { multiline: true }),
    openingHours,
    address: text(500, { multiline: true }),
    phone,
    email,
    website: url,
  },
  ['name'],
);

export const businessType: CodeType<BusinessContent> = { type: 'BUSINESS', kind: 'page', parse: contentParser(shape) };
