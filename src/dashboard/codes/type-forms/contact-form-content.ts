import { ADDRESS_PARTS, type ContactContent } from '../../../codes/types/index.js';

/** What the contact form shows for stored content, and a word under a field that was filled from an old value. */
export interface ContactFormContent {
  content: Record<string, unknown>;
  notes: Record<string, string>;
}

/**
 * A contact code made before names and addresses had parts, as the form shows it: the one-text name is split at
 * its last space (given name before, family name after) and the owner is asked to check it, since saving files
 * it that way on every phone; the one-text address becomes the street; numbers and addresses without a kind
 * become rows without one. Content already in parts is shown as it is.
 */
export function contactFormContent(stored: Record<string, unknown>): ContactFormContent {
  const c = stored as ContactContent;
  const content: Record<string, unknown> = { ...stored };
  const notes: Record<string, string> = {};
  if (c.name !== undefined && c.givenName === undefined && c.familyName === undefined) {
    const at = c.name.lastIndexOf(' ');
    if (at > 0) {
      content.givenName = c.name.slice(0, at).trim();
      content.familyName = c.name.slice(at + 1);
    } else {
      content.givenName = c.name;
    }
    delete content.name;
    notes.givenName = `This code had one name, “${c.name}”: check where given and family name divide before saving.`;
  }
  if (c.address !== undefined && !ADDRESS_PARTS.some((part) => c[part] !== undefined)) {
    content.street = c.address;
    delete content.address;
    notes.street = 'This code had its address as one text, now in this field: move postcode, city and country to their own fields.';
  }
  if (Array.isArray(c.phones)) content.phones = c.phones.map((p) => (typeof p === 'string' ? { number: p } : p));
  if (Array.isArray(c.emails)) content.emails = c.emails.map((e) => (typeof e === 'string' ? { address: e } : e));
  return { content, notes };
}
