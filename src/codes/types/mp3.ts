import type { CodeType } from './code-type.js';
import { contentParser, fileId, object, text } from './fields.js';

export interface Mp3Content {
  fileId: string;
  title?: string;
}

export const mp3Type: CodeType<Mp3Content> = {
  type: 'MP3',
  kind: 'page',
  parse: contentParser(object({ fileId, title: text(200) }, ['fileId'])),
};
