import type { CodeType } from './code-type.js';
import { contentParser, list, object, oneOf, text, url } from './fields.js';

export const SOCIAL_NETWORKS = [
  'facebook', 'instagram', 'x', 'linkedin', 'youtube', 'tiktok', 'pinterest', 'snapchat', 'whatsapp', 'telegram',
  'threads', 'mastodon', 'bluesky', 'github', 'other',
] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

export interface SocialMediaContent {
  title?: string;
  links: { network: SocialNetwork; url: string }[];
}

const link = object({ network: oneOf(SOCIAL_NETWORKS), url }, ['network', 'url']);

export const socialMediaType: CodeType<SocialMediaContent> = {
  type: 'SOCIAL_MEDIA',
  kind: 'page',
  parse: contentParser(object({ title: text(200), links: list(link, { min: 1, max: 20 }) }, ['links'])),
};
