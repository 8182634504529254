import { type BusinessContent, WEEKDAYS } from '../codes/types/index.js';
import { Icon } from './icons.js';
import { AddressOnMap } from './maps-link.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';

const DAY_NAMES = { monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday' };

export function BusinessPage({ content: c, publisher }: { content: BusinessContent; publisher: Publisher }) {
  return (
    <PageShell title={c.name} publisher={publisher}>
      <Paragraph text={c.description} />
      {c.phone && <a class="b" href={`tel:${c.phone.replace(/[^\d+]/g, '')}`}><Icon name="phone" />Call {c.phone}</a>}
      {c.email && <a class="b" href={`mailto:${c.email}`}><Icon name="mail" />Email {c.email}</a>}
      {c.website && <a class="b" href={c.website} rel="nofollow noopener"><Icon name="globe" />Visit the website</a>}
      {c.openingHours && (
        <>
          <h2>Opening hours</h2>
          <dl>
            {WEEKDAYS.map((day) => {
              const hours = c.openingHours?.[day] ?? [];
              return (
                <>
                  <dt>{DAY_NAMES[day]}</dt>
                  <dd>{hours.length === 0 ? 'Closed' : hours.map((h) => `${h.opens}–${h.closes}`).join(', ')}</dd>
                </>
              );
            })}
          </dl>
        </>
      )}
      {c.address && <><h2>Address</h2><AddressOnMap address={c.address} /></>}
    </PageShell>
  );
}
