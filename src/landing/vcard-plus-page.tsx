import { type AddressPart, contactCard, type ContactContent, type EmailKind, type PhoneKind } from '../codes/types/index.js';
import { Icon } from './icons.js';
import { mapsSearchUrl } from './maps-link.js';
import { type Publisher, PageShell, Paragraph } from './page-shell.js';
import { fileUrl } from './page-style.js';

const PHONE_WORDS: Record<PhoneKind, string> = { mobile: 'mobile', work: 'work', home: 'home' };
const EMAIL_WORDS: Record<EmailKind, string> = { work: 'work', home: 'home' };

/**
 * An address as it is written on an envelope: the street (its lines kept), postcode and city on one line, then
 * region and country. One order for every country: the card itself carries the parts, and the phone's contacts
 * app lays them out its own way.
 */
export function addressLines(address: Partial<Record<AddressPart, string>>): string[] {
  const town = [address.postcode, address.city].filter(Boolean).join(' ');
  return [address.street, town, address.region, address.country].filter((line): line is string => Boolean(line));
}

export function VcardPlusPage({ content, publisher, vcfHref }: { content: ContactContent; publisher: Publisher; vcfHref: string }) {
  const c = contactCard(content);
  return (
    <PageShell title={c.formattedName} publisher={publisher}>
      {c.photoFileId && <img class="ph" src={fileUrl(c.photoFileId)} alt={`Photo of ${c.formattedName}`} width={160} height={160} />}
      {(c.title || c.company) && <p>{[c.title, c.company].filter(Boolean).join(', ')}</p>}
      <a class="b" href={vcfHref} download="contact.vcf"><Icon name="userPlus" />Save contact</a>
      {c.phones.map((p) => (
        <a class="b" href={`tel:${p.number.replace(/[^\d+]/g, '')}`}>
          <Icon name="phone" />
          Call {p.number}{p.kind && ` (${PHONE_WORDS[p.kind]})`}
        </a>
      ))}
      {c.emails.map((e) => (
        <a class="b" href={`mailto:${e.address}`}>
          <Icon name="mail" />
          Email {e.address}{e.kind && ` (${EMAIL_WORDS[e.kind]})`}
        </a>
      ))}
      {c.website && <p><a href={c.website} rel="nofollow noopener">{c.website}</a></p>}
      {c.address && (
        <>
          <h2>Address</h2>
          <address class="t">
            <a class="o" href={mapsSearchUrl(addressLines(c.address).join('\n'))} rel="nofollow noopener"><Icon name="mapPin" /><span>{addressLines(c.address).join('\n')}</span></a>
          </address>
        </>
      )}
      <Paragraph text={c.note} />
    </PageShell>
  );
}
