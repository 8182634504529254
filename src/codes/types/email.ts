import type { CodeType } from './code-type.js';
import { contentParser, email, object, text } from './fields.js';

export interface EmailContent {
  to: string;
  subject?: string;
  body?: string;
}

// Bounded so the mailto: link stays well under the ~2,000 characters some mail apps accept.
export const emailType: CodeType<EmailContent> = {
  type: 'EMAIL',
  kind: 'page',
  parse: contentParser(object({ to: email, subject: text(200), body: text(1000, { multiline: true }) }, ['to'])),
};
