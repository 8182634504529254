import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { type RequestHandler, Router } from 'express';
import yaml from 'js-yaml';

/**
 * Public, unauthenticated: the contract at `/api/v1/openapi.yaml` (the file as written) and `/api/v1/openapi.json`,
 * and the docs portal (built from the same file by `npm run docs`) at `/docs`. The JSON and the portal's policy are
 * made on their first request and kept: parsing the contract and hashing the portal's scripts cost every start
 * ~40 ms that most processes never needed.
 */
export function createDocsRouter(paths: { contract: string; docsDir: string }): Router {
  const router = Router();
  const contractYaml = readFileSync(paths.contract, 'utf8');
  let contractJson: string | undefined;
  const etag = `"${createHash('sha256').update(contractYaml).digest('base64url').slice(0, 27)}"`;

  const send = (type: string, body: () => string): RequestHandler => (req, res) => {
    res.setHeader('ETag', etag);
    res.setHeader('Cache-Control', 'public, max-age=300');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    res.type(type).send(body());
  };
  router.get('/api/v1/openapi.yaml', send('application/yaml; charset=utf-8', () => contractYaml));
  router.get('/api/v1/openapi.json', send('application/json; charset=utf-8', () => (contractJson ??= JSON.stringify(yaml.load(contractYaml)))));

  // The portal is one self-contained page (Redoc's bundle inlined), so there is nothing else to serve.
  const portal = path.join(paths.docsDir, 'index.html');
  if (existsSync(portal)) {
    let csp: string | undefined;
    router.get(['/docs', '/docs/'], (_req, res) => {
      res.setHeader('Content-Security-Policy', (csp ??= portalPolicy(readFileSync(portal, 'utf8'))));
      res.sendFile(portal, { maxAge: '5m' });
    });
  } else {
    router.get(['/docs', '/docs/'], (_req, res) => {
      res.setHeader('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      res.status(404).type('text/plain').send('The docs portal is not built here. Run `npm run docs` (npm start does it), or read /api/v1/openapi.yaml.\n');
    });
  }
  return router;
}

/**
 * What Redoc's self-contained page needs and nothing more: its own inline scripts (allowed by hash, so an injected
 * script cannot run), inline styles (styled-components writes them at run time), data: images and fonts (inlined
 * icons and fonts) and same-origin fetches. No eval and no workers: scripts/build-docs.mjs makes the search index
 * in the page. Nothing may frame it. test/browser/docs.test.ts loads the page under this policy and fails on any
 * violation or any request to another origin.
 */
function portalPolicy(html: string): string {
  const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
  return [
    "default-src 'none'",
    `script-src ${hashes.join(' ') || "'none'"}`,
    "style-src 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
