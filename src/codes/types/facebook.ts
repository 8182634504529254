import type { CodeType } from './code-type.js';
import { contentParser, object, urlOn } from './fields.js';

export interface FacebookContent {
  pageUrl: string;
}

export const facebookType: CodeType<FacebookContent> = {
  type: 'FACEBOOK',
  kind: 'redirect',
  parse: contentParser(object({ pageUrl: urlOn(['facebook.com', 'fb.com', 'fb.me'], 'Facebook') }, ['pageUrl'])),
};
