import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { PROJECT_ROOT } from '../../paths.js';

const require = createRequire(import.meta.url);

type Encoding = 'br' | 'gzip';

/** The smallest each format makes: every body is compressed once and then served for the process's life. */
const COMPRESS: Record<Encoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
  gzip: (body) => promisify(gzip)(body, { level: 9 }),
};

interface Asset {
  /** `/assets/<name>.<hash>.<ext>`: a new file gets a new URL, so every URL can be cached for a year. */
  url: string;
  type: string;
  body: Buffer;
  /** Each encoding's body, compressed on its first request (see loadAssets). */
  encoded: Map<Encoding, Promise<Buffer>>;
}

/**
 * The asset's body in `encoding`, compressed on first use, off the event loop, and kept; the plain body if
 * compression failed (and it is tried again on the next request).
 */
async function encodedBody(asset: Asset, encoding: Encoding): Promise<Buffer | undefined> {
  let pending = asset.encoded.get(encoding);
  if (!pending) {
    pending = COMPRESS[encoding](asset.body);
    asset.encoded.set(encoding, pending);
  }
  try {
    return await pending;
  } catch {
    asset.encoded.delete(encoding);
    return undefined;
  }
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
 * two files. Read at start (names carry a content hash); each encoding is compressed on its first request, in
 * libuv's thread pool, and kept. Compressing all of them at start took ~0.3 s of CPU at Brotli's best quality on
 * the main thread before a process served anything, paid by every app the process builds (the test suite builds
 * hundreds: 70 s of its CPU) and wasted by a process that never serves an asset.
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
    byUrl.set(url, { url, type, body, encoded: new Map() });
    urls[key] = url;
  }

  const handler: RequestHandler = async (req, res, next) => {
    const asset = byUrl.get(req.path);
    if (!asset || (req.method !== 'GET' && req.method !== 'HEAD')) {
      next();
      return;
    }
    const accepted = String(req.headers['accept-encoding'] ?? '');
    const wanted: Encoding | undefined = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : undefined;
    const compressed = wanted && (await encodedBody(asset, wanted));
    const [encoding, body] = compressed ? [wanted, compressed] : [undefined, asset.body];
    res.setHeader('Content-Type', asset.type);
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    res.setHeader('Vary', 'Accept-Encoding');
    if (encoding) res.setHeader('Content-Encoding', encoding);
    res.setHeader('Content-Length', body.length);
    res.end(req.method === 'HEAD' ? undefined : body);
  };
  return { urls, handler };
}
