import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/**
 * The viewer's time zone (shared/viewer-time-zone.ts) for everything one render shows. sendPage and sendFragment
 * provide it, so a time deep in a table reads it without every page passing it down.
 */
export const ViewerZone = createContext('UTC');

/**
 * A moment as the viewer reads it: in their zone, the zone's short name written out ("CET", "GMT-5", "UTC"),
 * day and clock each kept on one line. The exact instant stays in `datetime`, and in UTC in the tooltip for
 * comparing with a receiver's logs.
 */
export function Moment(props: { at: Date | null; seconds?: boolean; empty?: string }) {
  const zone = useContext(ViewerZone);
  if (!props.at) return <>{props.empty ?? '—'}</>;
  const { day, clock } = momentParts(props.at, zone, props.seconds ?? false);
  const iso = props.at.toISOString();
  return (
    <time datetime={iso} title={`${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`}>
      <span class="nowrap">{day}</span> <span class="nowrap">{clock}</span>
    </time>
  );
}

/** A day in the viewer's zone, for dates where the hour does not matter (when someone joined). */
export function Day(props: { at: Date }) {
  const zone = useContext(ViewerZone);
  return <time datetime={props.at.toISOString()}>{momentParts(props.at, zone, false).day}</time>;
}

/** "26 Nov 2026" and "20:45 CET" (or "20:45:07 CET") in `zone`. */
export function momentParts(at: Date, zone: string, seconds: boolean): { day: string; clock: string } {
  const day = new Intl.DateTimeFormat('en-GB', { year: 'numeric', month: 'short', day: 'numeric', timeZone: zone }).format(at);
  const clock = new Intl.DateTimeFormat('en-GB', {
    hour: '2-digit',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZone: zone,
    timeZoneName: 'short',
  }).format(at);
  return { day, clock };
}
