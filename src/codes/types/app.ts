import type { CodeType } from './code-type.js';
import { contentParser, object, urlOn, url } from './fields.js';

export interface AppContent {
  appStoreUrl?: string;
  googlePlayUrl?: string;
  /** Where everyone else goes (a desktop, or a phone whose store has no link). */
  fallbackUrl: string;
}

const shape = object(
  {
    appStoreUrl: urlOn(['apps.apple.com', 'itunes.apple.com'], 'App Store'),
    googlePlayUrl: urlOn(['play.google.com'], 'Google Play'),
    fallbackUrl: url,
  },
  ['fallbackUrl'],
);

export const appType: CodeType<AppContent> = { type: 'APP', kind: 'redirect', parse: contentParser(shape) };

/** The store for the scanning phone's system (ua-parser-js names), else the fallback. */
export function appDestination(content: AppContent, os: string): string {
  if ((os === 'iOS' || os === 'iPadOS') && content.appStoreUrl) return content.appStoreUrl;
  if ((os === 'Android' || os === 'HarmonyOS') && content.googlePlayUrl) return content.googlePlayUrl;
  return content.fallbackUrl;
}
