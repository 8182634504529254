import type { EventContent } from '../codes/types/index.js';
import { eventInstant } from './icalendar.js';
import { Icon } from './icons.js';
import { mapsSearchUrl } from './maps-link.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';

function when(written: string, timeZone: string | undefined): string {
  const zone = timeZone ?? 'UTC';
  const formatted = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: zone }).format(eventInstant(written, timeZone));
  return `${formatted} (${zone})`;
}

export function EventPage({ content: c, publisher, icsHref }: { content: EventContent; publisher: Publisher; icsHref: string }) {
  return (
    <PageShell title={c.title} publisher={publisher}>
      <dl>
        <dt>Starts</dt>
        <dd>{when(c.start, c.timezone)}</dd>
        {c.end && <><dt>Ends</dt><dd>{when(c.end, c.timezone)}</dd></>}
        {c.location && <><dt>Where</dt><dd class="t"><a class="o" href={mapsSearchUrl(c.location)} rel="nofollow noopener"><Icon name="mapPin" /><span>{c.location}</span></a></dd></>}
      </dl>
      <a class="b" href={icsHref} download="event.ics"><Icon name="calendarPlus" />Add to calendar</a>
      <Paragraph text={c.description} />
      {c.url && <p><a href={c.url} rel="nofollow noopener">More about this event</a></p>}
    </PageShell>
  );
}
