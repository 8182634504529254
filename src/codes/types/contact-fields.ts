import { email, fileId, list, object, phone, text, url } from './fields.js';

/** The fields of a person's card, shared by VCARD_PLUS (a page) and CONTACT (the .vcf itself). */
export const contactShape = object(
  {
    name: text(200),
    title: text(200),
    company: text(200),
    phones: list(phone, { max: 5 }),
    emails: list(email, { max: 5 }),
    website: url,
    address: text(500, { multiline: true }),
    note: text(1000, { multiline: true }),
    photoFileId: fileId,
  },
  ['name'],
);

export interface ContactContent {
  name: string;
  title?: string;
  company?: string;
  phones?: string[];
  emails?: string[];
  website?: string;
  address?: string;
  note?: string;
  photoFileId?: string;
}
