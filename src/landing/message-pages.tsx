import type { EmailContent, SmsContent, TextContent } from '../codes/types/index.js';
import { Icon } from './icons.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';

export function TextPage({ content, publisher }: { content: TextContent; publisher: Publisher }) {
  return (
    <PageShell title="Message" publisher={publisher}>
      <Paragraph text={content.text} />
    </PageShell>
  );
}

/** RFC 6068: `to` as it is (the schema allows no specials in it), the header values percent-encoded. */
export function mailtoHref(c: EmailContent): string {
  const query = [
    c.subject !== undefined && `subject=${encodeURIComponent(c.subject)}`,
    c.body !== undefined && `body=${encodeURIComponent(c.body.replace(/\n/g, '\r\n'))}`,
  ].filter(Boolean);
  return `mailto:${c.to}${query.length > 0 ? `?${query.join('&')}` : ''}`;
}

export function EmailPage({ content, publisher }: { content: EmailContent; publisher: Publisher }) {
  return (
    <PageShell title={`Email ${content.to}`} publisher={publisher}>
      {content.subject && <p>Subject: {content.subject}</p>}
      <Paragraph text={content.body} />
      <a class="b" href={mailtoHref(content)}>
        <Icon name="mail" />
        Write the email
      </a>
    </PageShell>
  );
}

/** RFC 5724: the number, then `?body=` percent-encoded. */
export function smsHref(c: SmsContent): string {
  const number = c.phone.replace(/[^\d+]/g, '');
  return c.message === undefined ? `sms:${number}` : `sms:${number}?body=${encodeURIComponent(c.message)}`;
}

export function SmsPage({ content, publisher }: { content: SmsContent; publisher: Publisher }) {
  return (
    <PageShell title={`Text ${content.phone}`} publisher={publisher}>
      <Paragraph text={content.message} />
      <a class="b" href={smsHref(content)}>
        <Icon name="message" />
        Write the text message
      </a>
    </PageShell>
  );
}
