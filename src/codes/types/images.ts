import type { CodeType } from './code-type.js';
import { contentParser, fileId, list, object, text } from './fields.js';

export interface ImagesContent {
  fileIds: string[];
  title?: string;
}

// 30 images: a gallery a phone still loads quickly (each is lazy-loaded below the first screen).
export const imagesType: CodeType<ImagesContent> = {
  type: 'IMAGES',
  kind: 'page',
  parse: contentParser(object({ fileIds: list(fileId, { min: 1, max: 30 }), title: text(200) }, ['fileIds'])),
};
