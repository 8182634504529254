import type { CodeType } from './code-type.js';
import { contentParser, fileId, object, text } from './fields.js';

export interface PdfContent {
  fileId: string;
  title?: string;
}

export const pdfType: CodeType<PdfContent> = {
  type: 'PDF',
  kind: 'page',
  parse: contentParser(object({ fileId, title: text(200) }, ['fileId'])),
};
