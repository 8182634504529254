import type { TestApp } from './test-app.js';

/** A phone scanning a poster: counted as a human scan (mobile, iOS, Mobile Safari). */
export const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

/** Scans `/r/<slug>` on `app` as a phone would (no redirect followed); resolves to the status code. */
export async function scan(app: Pick<TestApp, 'origin'>, slug: string, init: { method?: string; userAgent?: string } = {}): Promise<number> {
  const response = await fetch(`${app.origin}/r/${slug}`, {
    method: init.method ?? 'GET',
    redirect: 'manual',
    headers: { 'User-Agent': init.userAgent ?? IPHONE_SAFARI },
  });
  return response.status;
}
