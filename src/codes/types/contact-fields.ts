import { type ContentProblem, email, type Field, fileId, list, object, oneOf, phone, refine, text, url } from './fields.js';

/** The kinds a number or address is filed under in a phone's contacts app (vCard TYPE=cell, work, home). */
export const PHONE_KINDS = ['mobile', 'work', 'home'] as const;
export const EMAIL_KINDS = ['work', 'home'] as const;
export type PhoneKind = (typeof PHONE_KINDS)[number];
export type EmailKind = (typeof EMAIL_KINDS)[number];

export interface ContactPhone {
  number: string;
  /** Absent: filed as a plain "phone" (every number of a code made before numbers had kinds). */
  kind?: PhoneKind;
}

export interface ContactEmail {
  address: string;
  kind?: EmailKind;
}

/** The parts of a postal address, each a vCard ADR component. */
export const ADDRESS_PARTS = ['street', 'postcode', 'city', 'region', 'country'] as const;
export type AddressPart = (typeof ADDRESS_PARTS)[number];

/**
 * A person's card, shared by VCARD_PLUS (a page) and CONTACT (the .vcf itself).
 *
 * Codes made before names and addresses had parts stored `name` (the whole name), `address` (one text) and
 * phones and emails as plain strings. They stay valid as they are: `name` is the card's formatted name (FN) and
 * is never split (vcard.ts), `address` is the street component, plain numbers are unlabelled. `contactCard`
 * reads both shapes; the form splits old values once, for the owner to check (type-forms/contact-form-content.ts).
 */
export interface ContactContent {
  givenName?: string;
  familyName?: string;
  /** The name as shown, when it is more than given and family name (or all there is, for an old code). */
  name?: string;
  title?: string;
  company?: string;
  phones?: (ContactPhone | string)[];
  emails?: (ContactEmail | string)[];
  website?: string;
  street?: string;
  postcode?: string;
  city?: string;
  region?: string;
  country?: string;
  /** The whole address as one text (old codes); not given together with its parts. */
  address?: string;
  note?: string;
  photoFileId?: string;
}

/**
 * A number with its kind: an object from the form, or `mobile: +49 170 1234567` as one text from an import's
 * cell (a phone number or email address never holds a colon, so the prefix cannot be misread); a plain text is
 * a number without a kind. Stored as an object either way.
 */
function labelled<K extends string, V extends string>(
  kinds: readonly K[],
  valueKey: V,
  value: Field<string>,
): Field<{ [key in V]: string } & { kind?: K }> {
  const asObject = object({ kind: oneOf(kinds), [valueKey]: value } as Record<'kind' | V, Field<string>>, [valueKey]);
  const prefixed = new RegExp(`^\\s*(${kinds.join('|')})\\s*:\\s*(.*)$`, 'i');
  return (input, path, problems) => {
    if (typeof input !== 'string') return asObject(input, path, problems) as ({ [key in V]: string } & { kind?: K }) | undefined;
    const match = prefixed.exec(input);
    const kind = match?.[1]?.toLowerCase() as K | undefined;
    const parsed = value(match ? match[2] : input, path, problems);
    if (parsed === undefined) return undefined;
    return (kind ? { kind, [valueKey]: parsed } : { [valueKey]: parsed }) as { [key in V]: string } & { kind?: K };
  };
}

const fields = object(
  {
    givenName: text(100),
    familyName: text(100),
    name: text(200),
    title: text(200),
    company: text(200),
    phones: list(labelled(PHONE_KINDS, 'number', phone), { max: 5 }),
    emails: list(labelled(EMAIL_KINDS, 'address', email), { max: 5 }),
    website: url,
    street: text(300, { multiline: true }),
    // 16: the longest postcodes in use (with spaces and a country prefix) are about 10 characters.
    postcode: text(16),
    city: text(100),
    region: text(100),
    country: text(100),
    address: text(500, { multiline: true }),
    note: text(1000, { multiline: true }),
    photoFileId: fileId,
  },
  [],
);

export const NAME_REQUIRED = 'give a given name or a family name';
export const ADDRESS_TWICE = 'give the address in its parts or as one text, not both';

function nameAndAddress(c: ContactContent): ContentProblem | undefined {
  if (c.givenName === undefined && c.familyName === undefined && c.name === undefined) return { path: '/givenName', message: NAME_REQUIRED };
  if (c.address !== undefined && ADDRESS_PARTS.some((part) => c[part] !== undefined)) return { path: '/address', message: ADDRESS_TWICE };
  return undefined;
}

export const contactShape: Field<ContactContent> = refine(fields as Field<ContactContent>, nameAndAddress);

/** A card as the .vcf and the page show it, from either shape of stored content. */
export interface ContactCard {
  /** The formatted name (FN): `name` if given, else given and family name. */
  formattedName: string;
  givenName: string;
  familyName: string;
  title?: string;
  company?: string;
  phones: ContactPhone[];
  emails: ContactEmail[];
  website?: string;
  /** Street (lines kept), postcode, city, region, country; an old one-text address is all street. */
  address?: Partial<Record<AddressPart, string>>;
  note?: string;
  photoFileId?: string;
}

export function contactCard(c: ContactContent): ContactCard {
  const parts = Object.fromEntries(ADDRESS_PARTS.flatMap((part) => (c[part] ? [[part, c[part]]] : []))) as Partial<Record<AddressPart, string>>;
  const address = Object.keys(parts).length > 0 ? parts : c.address ? { street: c.address } : undefined;
  const card: ContactCard = {
    formattedName: c.name ?? [c.givenName, c.familyName].filter(Boolean).join(' '),
    givenName: c.givenName ?? '',
    familyName: c.familyName ?? '',
    phones: (c.phones ?? []).map((p) => (typeof p === 'string' ? { number: p } : p)),
    emails: (c.emails ?? []).map((e) => (typeof e === 'string' ? { address: e } : e)),
  };
  if (c.title) card.title = c.title;
  if (c.company) card.company = c.company;
  if (c.website) card.website = c.website;
  if (address) card.address = address;
  if (c.note) card.note = c.note;
  if (c.photoFileId) card.photoFileId = c.photoFileId;
  return card;
}
