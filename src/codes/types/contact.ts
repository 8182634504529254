import type { CodeType } from './code-type.js';
import { type ContactContent, contactShape } from './contact-fields.js';
import { contentParser } from './fields.js';

/** A page type whose "page" is the .vcf download itself. */
export const contactType: CodeType<ContactContent> = { type: 'CONTACT', kind: 'page', parse: contentParser(contactShape) };
