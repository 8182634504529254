import type { CodeType } from './code-type.js';
import { type ContactContent, contactShape } from './contact-fields.js';
import { contentParser } from './fields.js';

export const vcardPlusType: CodeType<ContactContent> = { type: 'VCARD_PLUS', kind: 'page', parse: contentParser(contactShape) };
