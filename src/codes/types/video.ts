import type { CodeType } from './code-type.js';
import { contentParser, fileId, object, refine, text, url } from './fields.js';

/** An uploaded file, or a link to a video elsewhere (shown as a link: the page makes no third-party request). */
export interface VideoContent {
  fileId?: string;
  url?: string;
  title?: string;
}

const shape = refine(object({ fileId, url, title: text(200) }, []), (v) =>
  (v.fileId === undefined) === (v.url === undefined) ? { path: '/fileId', message: 'give either fileId or url' } : undefined,
);

export const videoType: CodeType<VideoContent> = { type: 'VIDEO', kind: 'page', parse: contentParser(shape) };
