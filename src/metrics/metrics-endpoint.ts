import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * `GET /metrics` for a scraper holding `Authorization: Bearer <METRICS_TOKEN>`; 401 otherwise. A plain node:http
 * handler, so the standalone worker serves it without Express. Both sides are hashed before the constant-time
 * comparison, which then never depends on (or reveals) the token's length.
 */
export function createMetricsHandler(registry: Registry, token: string) {
  const expected = digest(token);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const given = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1]?.trim();
    if (given === undefined || !timingSafeEqual(digest(given), expected)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer realm="metrics"', 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end('A valid METRICS_TOKEN is required as a bearer token.\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Cache-Control': 'no-store' }).end();
      return;
    }
    try {
      const body = await registry.metrics();
      res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch {
      res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' }).end('metrics could not be collected\n');
    }
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/** A listener that serves only `/metrics` (the standalone worker's port); every other path is 404. */
export function metricsOnlyListener(registry: Registry, token: string) {
  const metrics = createMetricsHandler(registry, token);
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (req.url === '/metrics' || req.url?.startsWith('/metrics?')) void metrics(req, res);
    else res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found\n');
  };
}
