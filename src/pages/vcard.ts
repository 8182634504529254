import type { ContactContent } from '../codes/types/index.js';
import { escapeCalendarText, foldLines } from './text-escaping.js';

/** A vCard 4.0 (RFC 6350) for a CONTACT or VCARD_PLUS code; every text value escaped. */
export function buildVcard(contact: ContactContent): string {
  const e = escapeCalendarText;
  const lines = ['BEGIN:VCARD', 'VERSION:4.0', `FN:${e(contact.name)}`, `N:${e(contact.name)};;;;`];
  if (contact.company) lines.push(`ORG:${e(contact.company)}`);
  if (contact.title) lines.push(`TITLE:${e(contact.title)}`);
  for (const phone of contact.phones ?? []) lines.push(`TEL;VALUE=text:${e(phone)}`);
  for (const email of contact.emails ?? []) lines.push(`EMAIL:${e(email)}`);
  if (contact.website) lines.push(`URL:${contact.website}`);
  // The address is free text: it goes into the street component (the third), with its line ends kept as \n.
  if (contact.address) lines.push(`ADR:;;${e(contact.address)};;;;`);
  if (contact.note) lines.push(`NOTE:${e(contact.note)}`);
  lines.push('END:VCARD');
  return foldLines(lines);
}
