import type { CodeType } from './code-type.js';
import { contentParser, object, text } from './fields.js';

export interface TextContent {
  text: string;
}

export const textType: CodeType<TextContent> = {
  type: 'TEXT',
  kind: 'page',
  parse: contentParser(object({ text: text(5000, { multiline: true }) }, ['text'])),
};
