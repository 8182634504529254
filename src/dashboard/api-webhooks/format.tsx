import type { ListedApiKey } from '../../accounts/api-keys.js';

/** How a key is named on screen: its stored prefix and last four characters, never more of it. */
export function keyHint(key: Pick<ListedApiKey, 'prefix' | 'lastFour'>): string {
  return `${key.prefix}…${key.lastFour}`;
}

/** A long answer cut for a table cell; the delivery's page shows the whole stored excerpt. */
export function excerpt(text: string | null, length = 80): string {
  if (!text) return '';
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length)}…` : line;
}
