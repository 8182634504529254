import { createHash } from 'node:crypto';

const PAGE_STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;' +
  'background:#f6f7f9;color:#1d2330}main{max-width:28rem;padding:2rem;text-align:center}h1{font-size:1.25rem}';

function page(title: string, sentence: string): Buffer {
  return Buffer.from(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<meta name="robots" content="noindex"><title>${title}</title><style>${PAGE_STYLE}</style></head>` +
      `<body><main><h1>${title}</h1><p>${sentence}</p></main></body></html>`,
  );
}

/** Their policy allows exactly their one stylesheet, by its hash, like the landing pages (no 'unsafe-inline'). */
export const NOT_FOUND_PAGE_POLICY = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'`;

/**
 * Self-contained pages (no external assets), rendered once. (A paused code's page is drawn in its account's colour
 * and logo, src/landing/paused-page.tsx.)
 */
export const NOT_FOUND_PAGES = {
  gone: page('QR code not found', 'This QR code does not exist or is no longer in use.'),
} as const;
