import { type LandingTarget, htmlAnswer, type LandingAnswer, publisherOf } from './index.js';
import { PageShell } from './page-shell.js';

/** The words issue 28 gives these pages; a phone shows them under the account's colour and logo. */
const NOT_ACTIVE_TITLE = 'This code is not active yet';
const NOT_ACTIVE_SENTENCE = 'The owner of this code has not started it yet. Please try again later.';
const EXPIRED_TITLE = 'This code has expired';
const EXPIRED_SENTENCE = 'The owner of this code has ended it. Thank you for scanning.';

/**
 * A scheduled code before its start (`activeFrom`): drawn like the paused page (src/landing/paused-page.tsx), from
 * what the scan's lookup cached with the code, so it keeps its look through a database outage.
 */
export function notActiveAnswer(target: Pick<LandingTarget, 'accountName' | 'brand'>): LandingAnswer {
  return scheduleAnswer(target, NOT_ACTIVE_TITLE, NOT_ACTIVE_SENTENCE);
}

/** A code past its expiry or its scan limit, without an expired URL to send scanners to. */
export function expiredAnswer(target: Pick<LandingTarget, 'accountName' | 'brand'>): LandingAnswer {
  return scheduleAnswer(target, EXPIRED_TITLE, EXPIRED_SENTENCE);
}

function scheduleAnswer(target: Pick<LandingTarget, 'accountName' | 'brand'>, title: string, sentence: string): LandingAnswer {
  const publisher = publisherOf(target);
  return htmlAnswer(
    <PageShell title={title} publisher={publisher}>
      <p>{sentence}</p>
    </PageShell>,
    publisher,
  );
}
