/**
 * The sentences shown after a redirect, chosen by a fixed word in `?done=`: nothing from the URL is ever shown
 * as text, so a link cannot put words on the page.
 */
const NOTICES = {
  'key-revoked': 'The key is revoked: the API refuses it from its next call on.',
  'webhook-saved': 'Webhook saved. Every scan is now sent to it.',
  'secret-rotated': 'Secret rotated. Reveal the new secret and give it to your receiver.',
  'webhook-removed': 'Webhook removed. Nothing is sent any more; deliveries that were waiting are marked failed.',
  redelivered: 'Redelivered: the newest attempt is at the bottom of the list.',
} as const;

export type NoticeName = keyof typeof NOTICES;

export function noticeFor(done: unknown): string | undefined {
  return typeof done === 'string' && Object.hasOwn(NOTICES, done) ? NOTICES[done as NoticeName] : undefined;
}

export function withNotice(path: string, notice: NoticeName, fragment = ''): string {
  return `${path}?done=${notice}${fragment}`;
}
