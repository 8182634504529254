import { createHash } from 'node:crypto';
import { textColorOn } from '../accounts/brand-color.js';
import { COPY_SCRIPT_HASH } from './copy-script.js';

/**
 * One small stylesheet inlined in every landing page: a scan opens one page, so a second request for CSS would
 * cost a phone more than these bytes. `--a` is the accent (buttons, the bar on top), `--at` the text on it.
 * The logo box and the contact photo have fixed sizes, so nothing moves when they load.
 */
/** qroute's own accent, for accounts without a colour. */
export const DEFAULT_ACCENT = '#1f5fbf';

const BASE_CSS =
  `:root{color-scheme:light dark;--a:${DEFAULT_ACCENT};--at:#fff;background:#fff;color:#1d2330}` +
  'body{font:17px/1.5 system-ui,sans-serif;margin:0;padding:1rem;border-top:.4rem solid var(--a)}' +
  'main,header{max-width:34rem;margin:0 auto}h1{font-size:1.5rem;margin:.5rem 0}h2{font-size:1.1rem}' +
  // The phone's dark mode, with colours set rather than left to the browser, whose link blue is unreadable there.
  'a{color:#0645ad}@media(prefers-color-scheme:dark){:root{background:#121212;color:#e8eaed}a{color:#8ab4f8}}' +
  'a.b{display:block;text-align:center;padding:.8rem;margin:.6rem 0;border-radius:.5rem;background:var(--a);color:var(--at);text-decoration:none}' +
  'ul.l{list-style:none;padding:0}dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem 1rem}dd{margin:0}' +
  'img,video,audio{width:100%;height:auto}code{font-size:1.2rem;word-break:break-all}.t{white-space:pre-wrap}' +
  '.lg{display:block;width:10rem;height:3rem;object-fit:contain;object-position:left center}' +
  '.ph{width:10rem;height:10rem;object-fit:cover;border-radius:50%}' +
  'footer{margin-top:2rem;font-size:.85rem;opacity:.75}' +
  // A long address or name breaks inside a word rather than pushing the page sideways (390 px phones).
  'main,footer{overflow-wrap:anywhere}' +
  // Icons (icons.tsx) beside a button's words; buttons centre both.
  '.i{width:1.3em;height:1.3em;flex:none}a.b{display:flex;align-items:center;justify-content:center;gap:.5rem}' +
  'a.o{display:inline-flex;align-items:center;gap:.4rem}' +
  // The coupon: a dashed ticket with the code large, and its Copy button (shown by the page's one script).
  '.cp{border:2px dashed var(--a);border-radius:1rem;padding:1rem;margin:1rem 0;text-align:center}' +
  '.cc{display:block;font:700 2rem/1.2 ui-monospace,Menlo,Consolas,monospace;letter-spacing:.06em;margin:.3rem 0 .6rem}' +
  '.cp button{font:inherit;padding:.5rem 1.2rem;border-radius:.5rem;border:2px solid var(--a);background:none;color:inherit;cursor:pointer}' +
  // The PDF's first page, at A4's proportions, on white (a PDF's own background) in dark mode too.
  '.pv{display:block;width:100%;aspect-ratio:1/1.414;border:1px solid #8888;border-radius:.3rem;background:#fff;color:#1d2330}' +
  '.pv p{padding:1rem}';

/**
 * The stylesheet for an account's colour (null: qroute's own). Only the two custom properties change; the
 * colour is `#rrggbb` (checked when set and by the database), so nothing else can reach the stylesheet.
 */
export function pageCss(color: string | null): string {
  return color === null ? BASE_CSS : `${BASE_CSS}:root{--a:${color};--at:${textColorOn(color)}}`;
}

/**
 * Files of the page (PDF, images, audio, video, the logo) come from this service only; nothing else may load.
 * The inline stylesheet is allowed by its hash (no 'unsafe-inline'), so the policy follows the page's colour.
 */
export function pageCsp(css: string): string {
  const hash = createHash('sha256').update(css).digest('base64');
  return (
    `default-src 'none'; style-src 'sha256-${hash}'; img-src 'self'; media-src 'self'; ` +
    // The PDF page's preview is an <object> of the PDF (file-pages.tsx), which Chrome draws in a frame of its own
    // viewer (hence frame-src); the coupon's Copy button is one script.
    `object-src 'self'; frame-src 'self'; script-src '${COPY_SCRIPT_HASH}'; ` +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
  );
}

/** Where an uploaded file is served (the files part owns that route). */
export function fileUrl(fileId: string): string {
  return `/files/${encodeURIComponent(fileId)}`;
}
