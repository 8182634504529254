import { createHash } from 'node:crypto';

/**
 * One small stylesheet inlined in every landing page: a scan opens one page, so a second request for CSS would
 * cost a phone more than these bytes. The CSP allows exactly this text by its hash (no 'unsafe-inline').
 */
export const PAGE_CSS =
  ':root{color-scheme:light dark;--a:#1f5fbf}body{font:17px/1.5 system-ui,sans-serif;margin:0;padding:1rem}' +
  'main{max-width:34rem;margin:0 auto}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.1rem}' +
  'a.b{display:block;text-align:center;padding:.8rem;margin:.6rem 0;border-radius:.5rem;background:var(--a);color:#fff;text-decoration:none}' +
  'ul.l{list-style:none;padding:0}dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem}dd{margin:0}' +
  'img,video,audio{width:100%;height:auto}code{font-size:1.2rem;word-break:break-all}.t{white-space:pre-wrap}' +
  'footer{margin-top:2rem;font-size:.85rem;opacity:.75}';

const CSS_HASH = createHash('sha256').update(PAGE_CSS).digest('base64');

/** Files of the page (PDF, images, audio, video) come from this service only; nothing else may load. */
export const PAGE_CSP =
  `default-src 'none'; style-src 'sha256-${CSS_HASH}'; img-src 'self'; media-src 'self'; ` +
  "base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Where an uploaded file is served (the files part owns that route). */
export function fileUrl(fileId: string): string {
  return `/files/${encodeURIComponent(fileId)}`;
}
