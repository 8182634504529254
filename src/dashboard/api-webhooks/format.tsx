import type { ListedApiKey } from '../../accounts/api-keys.js';

/**
 * Times in UTC with the zone written out: the same instant reads the same for every owner of the account and in
 * the receiver's logs, which are usually UTC too.
 */
export function formatTime(at: Date, options: { seconds?: boolean } = {}): string {
  const iso = at.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, options.seconds ? 19 : 16)} UTC`;
}

export function Time(props: { at: Date | null; seconds?: boolean; empty?: string }) {
  if (!props.at) return <>{props.empty ?? '—'}</>;
  const [day, ...clock] = formatTime(props.at, { seconds: props.seconds }).split(' ');
  // Day and clock each stay on one line; a narrow table cell breaks between them, never inside.
  return (
    <time datetime={props.at.toISOString()}>
      <span class="nowrap">{day}</span> <span class="nowrap">{clock.join(' ')}</span>
    </time>
  );
}

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
