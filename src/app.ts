import { randomUUID } from 'node:crypto';
import type { RequestListener } from 'node:http';
import express, { type Express } from 'express';
import { sql } from 'kysely';
import { pinoHttp } from 'pino-http';
import type { LevelWithSilent, Logger } from 'pino';
import type { Config } from './config.js';
import { answerWithin } from './db/answer-within.js';
import { primaryReads, type StaleReads } from './db/read-replicas.js';
import type { Database } from './db/schema/index.js';
import { errorHandler, notFoundHandler } from './api/error-handler.js';
import type { ContractValidation } from './api/contract-validation.js';
import { createApiRouter } from './api/router.js';
import { createDashboardRouter } from './dashboard/index.js';
import { createDocsRouter } from './docs.js';
import { serveFile } from './files/serve-file.js';
import { loggableUrl } from './request-log.js';
import { createMetricsHandler, type Metrics } from './metrics/index.js';
import { createQrImages, type QrImages } from './qr/index.js';
import { CONTRACT_PATH, DOCS_DIR } from './paths.js';
import { isShortLinkPath, type Redirect } from './redirect/index.js';
import { securityHeaders, securityHeadersMiddleware } from './security-headers.js';
import type { SecretBox } from './webhooks/secret-box.js';
import { readOutboxBacklog } from './webhooks/outbox.js';

export interface AppDependencies {
  config: Config;
  db: Database;
  /** Reads that may be slightly stale (analytics, lists, exports, the scans list): replicas when configured. */
  reads?: StaleReads;
  logger: Logger;
  /** Encrypts webhook secrets at rest: the dashboard sets, reveals and rotates them. */
  box: SecretBox;
  /** The QR image pool and limits; made from config when not given (its idle threads end on their own). */
  images?: QrImages;
  /** Served at GET /metrics when `config.metricsToken` is set; the app also counts its API requests and pool in it. */
  metrics?: Metrics;
  /** The API's contract validation, when built once for several apps (src/api/contract-validation.ts); else made here. */
  contractValidation?: ContractValidation;
}

/** Readiness probes usually time out after a few seconds themselves; answer 503 before they do. */
const READINESS_TIMEOUT_MS = 2_000;

/** A client may pass its own request id (for tracing across services) if it is short and printable. */
const CLIENT_REQUEST_ID = /^[\x21-\x7E]{1,128}$/;

/** Builds the HTTP application from config and services; it holds no state of its own beyond them. */
export function createApp({ config, db, reads: givenReads, logger, box, images: givenImages, metrics, contractValidation }: AppDependencies): Express {
  const images = givenImages ?? createQrImages(config);
  const reads = givenReads ?? primaryReads(db);
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  app.set('trust proxy', config.trustProxy);
  // Kept on the app so the request listener gives short links (which bypass Express) the same headers.
  app.locals.securityHeaders = securityHeaders(config.siteUrl);
  app.use(securityHeadersMiddleware(app.locals.securityHeaders));

  app.use(
    pinoHttp({
      logger: logger.child({ part: 'http' }),
      genReqId: (req, res) => {
        const given = req.headers['x-request-id'];
        const id = typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      // 503 is a database outage the error handler has already logged as such, not a bug.
      customLogLevel: (_req, res, error): LevelWithSilent =>
        res.statusCode === 503 ? 'warn' : error || res.statusCode >= 500 ? 'error' : 'info',
      serializers: {
        // Never the raw URL: upload actions carry the CSRF token in their query, links carry invitation tokens.
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: loggableUrl(req.url) }),
      },
    }),
  );

  app.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    try {
      // A load balancer must learn about a hung database too, not wait on it.
      await answerWithin(sql`select 1`.execute(db), READINESS_TIMEOUT_MS);
      res.json({ status: 'ok' });
    } catch {
      res.status(503).json({ status: 'unavailable', reason: 'database unreachable' });
    }
  });

  if (metrics && config.metricsToken) {
    metrics.pools.watch('main', db);
    metrics.outbox.watch(() => readOutboxBacklog(db));
    app.all('/metrics', createMetricsHandler(metrics.registry, config.metricsToken));
  }

  app.use(createDocsRouter({ contract: CONTRACT_PATH, docsDir: DOCS_DIR }));
  // Files that landing pages show (PDFs, images, audio, video): public like the pages themselves; an id is 75 random
  // bits, and serveFile answers with a sandboxing CSP, nosniff, ranges and an ETag.
  app.get('/files/:id', (req, res) => serveFile(db, req, res, { fileId: req.params.id }));
  app.use('/api/v1', createApiRouter({ config, db, reads, logger: logger.child({ part: 'api' }), images, metrics: metrics?.api, contractValidation }));
  app.use(createDashboardRouter({ config, db, reads, logger: logger.child({ part: 'dashboard' }), box, images }));
  app.use(notFoundHandler);
  app.use(errorHandler(logger.child({ part: 'api' })));
  return app;
}

/**
 * The server's request listener: short links go straight to the redirect handler on bare node:http (the hot
 * path skips Express's middleware stack), everything else to the Express app.
 */
export function createRequestListener(api: Express, redirect: Redirect['handler']): RequestListener {
  const headers = api.locals.securityHeaders as ReturnType<typeof securityHeaders>;
  return (req, res) => {
    if (isShortLinkPath(req.url)) void redirect(req, res, headers);
    else api(req, res);
  };
}
