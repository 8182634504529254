import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import type { RequestHandler } from 'express';
import { PROJECT_ROOT } from '../../paths.js';

const require = createRequire(import.meta.url);

interface Asset {
  /** `/assets/<name>.<hash>.<ext>`: a new file gets a new URL, so every URL can be cached for a year. */
  url: string;
  type: string;
  body: Buffer;
  gzip: Buffer;
  brotli: Buffer;
}

/** The URLs pages link to. */
export interface AssetUrls {
  picoCss: string;
  appCss: string;
  htmxJs: string;
  appJs: string;
}

/**
 * Every file the dashboard loads, served by us (no CDN): Pico CSS and htmx from their npm packages, and our own
 * two files. Read and compressed once at start; names carry a content hash.
 */
export function loadAssets(): { urls: AssetUrls; handler: RequestHandler } {
  const own = (file: string) => path.join(PROJECT_ROOT, 'src', 'dashboard', 'shared', 'assets', file);
  const sources = {
    picoCss: ['pico', require.resolve('@picocss/pico/css/pico.min.css'), 'text/css; charset=utf-8'],
    appCss: ['app', own('app.css'), 'text/css; charset=utf-8'],
    htmxJs: ['htmx', require.resolve('htmx.org/dist/htmx.min.js'), 'text/javascript; charset=utf-8'],
    appJs: ['app', own('app.js'), 'text/javascript; charset=utf-8'],
  } as const;
  const byUrl = new Map<string, Asset>();
  const urls = {} as AssetUrls;
  for (const [key, [name, file, type]] of Object.entries(sources) as Array<[keyof AssetUrls, readonly [string, string, string]]>) {
    const body = readFileSync(file);
    const hash = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    const url = `/assets/${name}.${hash}${path.extname(file)}`;
    byUrl.set(url, {
      url,
      type,
      body,
      gzip: gzipSync(body, { level: 9 }),
      brotli: brotliCompressSync(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
    });
    urls[key] = url;
  }

  const handler: RequestHandler = (req, res, next) => {
    const asset = byUrl.get(req.path);
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const [encoding, body] = /\bbr\b/.test(accepted)
      ? ['br', asset.brotli]
      : /\bgzip\b/.test(accepted)
        ? ['gzip', asset.gzip]
        : [undefined, asset.body];
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  return { urls, handler };
}
