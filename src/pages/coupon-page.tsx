import type { CouponContent } from '../codes/types/index.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';

export function CouponPage({ content: c, publisher, now }: { content: CouponContent; publisher: Publisher; now: Date }) {
  // Written without an offset, the expiry is read as UTC: the page says so rather than guess the reader's zone.
  const expiry = c.expiresAt === undefined ? undefined : new Date(/(Z|[+-]\d{2}:\d{2})$/.test(c.expiresAt) ? c.expiresAt : `${c.expiresAt}Z`);
  const expired = expiry !== undefined && expiry.getTime() < now.getTime();
  return (
    <PageShell title={c.title} publisher={publisher}>
      <Paragraph text={c.description} />
      {c.code && (
        <p>
          Your code: <code>{c.code}</code>
        </p>
      )}
      {expiry && <p>{expired ? 'This offer has expired' : 'Valid until'} {expiry.toISOString().slice(0, 16).replace('T', ' ')} UTC.</p>}
      {c.terms && <><h2>Terms</h2><Paragraph text={c.terms} /></>}
    </PageShell>
  );
}
