import type { CouponContent } from '../codes/types/index.js';
import { COPY_SCRIPT } from './copy-script.js';
import { eventInstant } from './icalendar.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';

/** The expiry in the issuer's zone (UTC when none was given), named, so a reader elsewhere knows what it means. */
function expiryText(instant: Date, timeZone: string | undefined): string {
  const zone = timeZone ?? 'UTC';
  const formatted = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: zone }).format(instant);
  return `${formatted} (${zone})`;
}

export function CouponPage({ content: c, publisher, now }: { content: CouponContent; publisher: Publisher; now: Date }) {
  // Read in the zone the issuer gave (as an event's times are); without one, as UTC, and the page says which.
  const expiry = c.expiresAt === undefined ? undefined : eventInstant(c.expiresAt, c.timezone);
  const expired = expiry !== undefined && expiry.getTime() < now.getTime();
  return (
    <PageShell title={c.title} publisher={publisher}>
      <Paragraph text={c.description} />
      {(c.code || expiry) && (
        // A ticket: what the till asks for, large, with a Copy button for an online shop's code field.
        <div class="cp">
          {c.code && (
            <>
              <span>Your code</span>
              <strong class="cc" id="coupon-code">{c.code}</strong>
              <button type="button" data-copy="coupon-code" hidden>Copy code</button>
              <script dangerouslySetInnerHTML={{ __html: COPY_SCRIPT }} />
            </>
          )}
          {expiry && <p>{expired ? 'This offer expired on' : 'Valid until'} {expiryText(expiry, c.timezone)}.</p>}
        </div>
      )}
      {c.terms && <><h2>Terms</h2><Paragraph text={c.terms} /></>}
    </PageShell>
  );
}
