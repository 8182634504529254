import { type ContactCard, type ContactContent, contactCard, type EmailKind, type PhoneKind } from '../codes/types/index.js';
import { escapeCalendarText, foldLines } from './text-escaping.js';
import type { VcardPhoto } from './vcard-photo.js';

// What iOS Contacts and Android's importer file as "mobile", "work" and "home"; a number without a kind is a
// plain phone (VOICE), an address without one a plain email (INTERNET is vCard 3.0's "an email address").
const TEL_TYPES: Record<PhoneKind, string> = { mobile: 'CELL', work: 'WORK,VOICE', home: 'HOME,VOICE' };
const EMAIL_TYPES: Record<EmailKind, string> = { work: 'INTERNET,WORK', home: 'INTERNET,HOME' };

/**
 * A vCard 3.0 (RFC 2426) for a CONTACT or VCARD_PLUS code; every text value escaped, lines folded at 75 octets.
 * 3.0 rather than 4.0: it is what iOS Contacts and Android's contacts importer both write and read, photo
 * included (`PHOTO;ENCODING=b;TYPE=JPEG:` + base64); vCard 4's `PHOTO:data:` URI is not imported everywhere.
 * Text escaping and folding are the same in both versions.
 */
export function buildVcard(content: ContactContent, photo?: VcardPhoto): string {
  const card = contactCard(content);
  const e = escapeCalendarText;
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `N:${structuredName(card)}`, `FN:${e(card.formattedName)}`];
  if (card.company) lines.push(`ORG:${e(card.company)}`);
  if (card.title) lines.push(`TITLE:${e(card.title)}`);
  for (const phone of card.phones) lines.push(`TEL;TYPE=${phone.kind ? TEL_TYPES[phone.kind] : 'VOICE'}:${e(phone.number)}`);
  for (const email of card.emails) lines.push(`EMAIL;TYPE=${email.kind ? EMAIL_TYPES[email.kind] : 'INTERNET'}:${e(email.address)}`);
  if (card.website) lines.push(`URL:${card.website}`);
  if (card.address) {
    const a = card.address;
    // The seven ADR components: post office box, extended address, street, locality, region, postal code,
    // country. No TYPE: 3.0's default for an address is work (and postal). An old one-text address is the street.
    lines.push(`ADR:${['', '', a.street, a.city, a.region, a.postcode, a.country].map((part) => e(part ?? '')).join(';')}`);
  }
  if (card.note) lines.push(`NOTE:${e(card.note)}`);
  if (photo) lines.push(`PHOTO;ENCODING=b;TYPE=${photo.type}:${photo.bytes.toString('base64')}`);
  lines.push('END:VCARD');
  return foldLines(lines);
}

/**
 * N's five components: family name, given name, additional names, prefixes, suffixes. An old code's one-text
 * name is not split (nothing says where "Anna Maria van der Berg" divides): it goes whole into the given name,
 * so a phone shows it as written and files it under its first letter, never under a wrong family name.
 */
function structuredName(card: ContactCard): string {
  const e = escapeCalendarText;
  if (card.givenName === '' && card.familyName === '') return `;${e(card.formattedName)};;;`;
  return `${e(card.familyName)};${e(card.givenName)};;;`;
}
