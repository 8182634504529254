import { formText } from '../shared/forms.js';

/**
 * Reading the routing forms. A checkbox group arrives as one string or, with several ticked, an array
 * (express.urlencoded with extended: false); every other field is one string.
 */
export function formList(body: unknown, field: string): string[] {
  const value = (body as Record<string, unknown> | undefined)?.[field];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** A text field of several entries: "DE, AT" or "DE AT" → ['DE', 'AT']. */
export function entriesOf(text: string): string[] {
  return text.split(/[,;\s]+/).filter((entry) => entry !== '');
}

/** What a field held, kept within reason for showing the form again. */
export function kept(body: unknown, field: string, max = 4096): string {
  return formText(body, field).slice(0, max);
}

/** time inputs send HH:MM, some browsers HH:MM:SS when seconds were shown: whole minutes are what rules hold. */
export function clockText(value: string): string {
  return /^\d{2}:\d{2}:00(\.0+)?$/.test(value) ? value.slice(0, 5) : value;
}
