import type { CodeType } from './code-type.js';
import { contentParser, object, url } from './fields.js';

const shape = object({ url }, ['url']);
export type UrlContent = { url: string };

export const urlType: CodeType<UrlContent> = { type: 'URL', kind: 'redirect', parse: contentParser(shape) };
