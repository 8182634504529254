import type { ContactContent } from '../codes/types/index.js';
import { escapeCalendarText, foldLines } from './text-escaping.js';
import type { VcardPhoto } from './vcard-photo.js';

/**
 * A vCard 3.0 (RFC 2426) for a CONTACT or VCARD_PLUS code; every text value escaped, lines folded at 75 octets.
 * 3.0 rather than 4.0: it is what iOS Contacts and Android's contacts importer both write and read, photo
 * included (`PHOTO;ENCODING=b;TYPE=JPEG:` + base64); vCard 4's `PHOTO:data:` URI is not imported everywhere.
 * Text escaping and folding are the same in both versions.
 */
export function buildVcard(contact: ContactContent, photo?: VcardPhoto): string {
  const e = escapeCalendarText;
  const lines = ['BEGIN:VCARD', 'VERSION:3.0', `FN:${e(contact.name)}`, `N:${e(contact.name)};;;;`];
  if (contact.company) lines.push(`ORG:${e(contact.company)}`);
  if (contact.title) lines.push(`TITLE:${e(contact.title)}`);
  for (const phone of contact.phones ?? []) lines.push(`TEL;TYPE=VOICE:${e(phone)}`);
  for (const email of contact.emails ?? []) lines.push(`EMAIL;TYPE=INTERNET:${e(email)}`);
  if (contact.website) lines.push(`URL:${contact.website}`);
  // The address is free text: it goes into the street component (the third), with its line ends kept as \n.
  if (contact.address) lines.push(`ADR:;;${e(contact.address)};;;;`);
  if (contact.note) lines.push(`NOTE:${e(contact.note)}`);
  if (photo) lines.push(`PHOTO;ENCODING=b;TYPE=${photo.type}:${photo.bytes.toString('base64')}`);
  lines.push('END:VCARD');
  return foldLines(lines);
}
