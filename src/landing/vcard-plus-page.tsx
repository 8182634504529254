import type { ContactContent } from '../codes/types/index.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';
import { fileUrl } from './page-style.js';

export function VcardPlusPage({ content: c, publisher, vcfHref }: { content: ContactContent; publisher: Publisher; vcfHref: string }) {
  return (
    <PageShell title={c.name} publisher={publisher}>
      {c.photoFileId && <img class="ph" src={fileUrl(c.photoFileId)} alt={`Photo of ${c.name}`} width={160} height={160} />}
      {(c.title || c.company) && <p>{[c.title, c.company].filter(Boolean).join(', ')}</p>}
      <a class="b" href={vcfHref} download="contact.vcf">Save contact</a>
      {c.phones?.map((p) => <a class="b" href={`tel:${p.replace(/[^\d+]/g, '')}`}>Call {p}</a>)}
      {c.emails?.map((e) => <a class="b" href={`mailto:${e}`}>Email {e}</a>)}
      {c.website && <p><a href={c.website} rel="nofollow noopener">{c.website}</a></p>}
      {c.address && <><h2>Address</h2><Paragraph text={c.address} /></>}
      <Paragraph text={c.note} />
    </PageShell>
  );
}
