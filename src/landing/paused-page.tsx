import { type LandingTarget, htmlAnswer, type LandingAnswer, publisherOf } from './index.js';
import { PageShell } from './page-shell.js';

/** What a paused code says, in the words its plain page always used. */
const PAUSED_TITLE = 'This QR code is paused';
const PAUSED_SENTENCE = 'The owner of this code has paused it for now. Please try again later.';

/**
 * A paused code's page in its account's colour and logo, which the scan's lookup has already (cached with the
 * code), so a customer sees whose code it is and that it will be back. A deleted code's page stays plain: its
 * account is no longer shown anything for.
 */
export function pausedAnswer(target: Pick<LandingTarget, 'accountName' | 'brand'>): LandingAnswer {
  const publisher = publisherOf(target);
  return htmlAnswer(
    <PageShell title={PAUSED_TITLE} publisher={publisher}>
      <p>{PAUSED_SENTENCE}</p>
    </PageShell>,
    publisher,
  );
}
