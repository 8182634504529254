import type { Logger } from 'pino';
import type { ContractValidation } from './api/contract-validation.js';
import type { Config } from './config.js';
import { type DatabaseConnection, openDatabase } from './db/connect.js';
import { createDatabase } from './db/database.js';
import { primaryReads, ReadReplicas, replicaName, type StaleReads } from './db/read-replicas.js';
import type { Database } from './db/schema/index.js';
import { keepSiteUrlRecorded } from './db/site-url.js';
import { createLogger } from './logger.js';
import type { Metrics } from './metrics/index.js';
import type { QrImages } from './qr/index.js';
import type { Redirect } from './redirect/index.js';
import type { RunningServer } from './server.js';
import type { WebhookDelivery, WebhookDeliveryTuning } from './webhooks/index.js';
import { loadSecretBox, type SecretBox } from './webhooks/secret-box.js';

/**
 * What a process runs:
 * - `server` (`npm start`): the API, dashboard and short links on PORT, the webhook worker unless
 *   WEBHOOK_WORKER=false, and the background jobs (pruning, analytics rollup, bulk imports);
 * - `worker` (`npm run worker`): webhook delivery and pruning, with its own /metrics on WORKER_METRICS_PORT;
 * - `admin` (the CLI): the database and nothing else.
 */
export type ServiceRole = 'server' | 'worker' | 'admin';

export interface ServiceOptions {
  role: ServiceRole;
  /** The webhook-secret key, loaded before anything starts (lifecycle.ts); else loaded here (the CLI loads its own). */
  box?: SecretBox;
  /**
   * A database opened by the caller (a test's own per-file database): used as it is, never migrated or closed here.
   * Without it the configured one is opened (embedded unless DATABASE_URL is set) and closed on stop.
   */
  database?: { db: Database; connectionString: string };
  /** Only the CLI creates nothing: `false` fails on a DATA_DIR without a cluster (`--init` sets it true). */
  createEmbedded?: boolean;
  logger?: Logger;
  /** Where the server listens (default: every interface); the port is config.port (0: any free one). */
  host?: string;
  /** Retry policy, timeouts and worker sizes of webhook delivery (tests shorten them). */
  webhookTuning?: WebhookDeliveryTuning;
  /** Background jobs left out (a test that runs one by hand); production runs all of them. */
  withoutJobs?: ReadonlyArray<'pruning' | 'rollup' | 'imports' | 'visitor-days'>;
  /** The clock scans are recorded by and UTC days turn by for visitors (tests move it to begin a new day). */
  now?: () => number;
  /** The API's contract validation, built once by a process that starts many services (a test worker); else made here. */
  contractValidation?: ContractValidation;
}

export interface Service {
  role: ServiceRole;
  config: Config;
  logger: Logger;
  db: Database;
  /** The primary without a pooler in between (DATABASE_DIRECT_URL), for session advisory locks; else `db` itself. */
  directDb: Database;
  /** Where stale-tolerant reads go: read replicas (DATABASE_READ_URL) with the primary as fallback. */
  reads: StaleReads;
  /** The database as opened: its connection string and a description for people (no password). */
  database: { connectionString: string; description: string };
  /** Undefined for the CLI, which loads the key only for the commands that need it. */
  box: SecretBox | undefined;
  /** The server's parts (undefined for a worker or the CLI). */
  images: QrImages | undefined;
  redirect: Redirect | undefined;
  /** The server's listening socket, or the worker's metrics-only one (when it has metrics). */
  server: RunningServer | undefined;
  /** `http://127.0.0.1:<port>` style origin of `server` as seen from this host. */
  origin: string | undefined;
  /** Undefined when this process does not deliver webhooks. */
  webhooks: WebhookDelivery | undefined;
  /** This process's registry, when METRICS_TOKEN is set (and, for a worker, WORKER_METRICS_PORT). */
  metrics: Metrics | undefined;
  /** Stops in the order that loses nothing: no new requests, scans written, deliveries finished, jobs, database. */
  stop(graceMs?: number): Promise<void>;
}

/**
 * The one composition root: main.ts, worker.ts, the admin CLI, the tests and the bench all build the service here,
 * so what a test runs is what production runs.
 */
export async function createService(config: Config, options: ServiceOptions): Promise<Service> {
  const { role, ...overrides } = options;
  const box = options.box ?? (role === 'admin' ? undefined : await loadSecretBox(config));
  const logger = overrides.logger ?? createLogger({ level: config.logLevel, format: config.logFormat });
  const opened = await openService(config, role, logger, overrides);
  const { db, connectionString, directConnectionString, pooling } = opened;
  const stops: Array<(graceMs: number) => Promise<void>> = [];
  const service: Service = {
    role,
    config,
    logger,
    db,
    directDb: opened.directDb,
    reads: primaryReads(db),
    database: { connectionString, description: opened.description },
    box,
    images: undefined,
    redirect: undefined,
    server: undefined,
    origin: undefined,
    webhooks: undefined,
    metrics: undefined,
    stop: async (graceMs = config.shutdownGraceMs) => {
      // Reverse order of start, each given the grace: a later part may need an earlier one (scans need the database).
      // A part that fails to stop does not keep the rest running (the embedded PostgreSQL above all); its error is
      // thrown once all have been asked.
      let failure: unknown;
      for (const stop of stops.reverse().splice(0)) await stop(graceMs).catch((error: unknown) => (failure ??= error));
      if (failure !== undefined) throw failure;
    },
  };
  stops.push(() => opened.close());
  if (role === 'admin' || !box) return service;

  try {
    // Loaded only here: the CLI needs the database alone, and without Express, the dashboard and the renderers an
    // admin command starts in 0.45 s instead of 1 s (the CLI tests run it dozens of times).
    const [
      { openGeoLookup },
      { createScanRollupJob },
      { createApp, createRequestListener },
      { createImportJob },
      { createPruningJob },
      { createMetrics, metricsOnlyListener },
      { createQrImages },
      { createRedirect },
      { journalDirFor },
      { listen },
      { createWebhookDelivery },
      { readOutboxBacklog },
      { createVisitorDaysJob },
    ] = await Promise.all([
      import('./audience/geo-lookup.js'),
      import('./analytics/index.js'),
      import('./app.js'),
      import('./imports/import-job.js'),
      import('./maintenance/pruning-job.js'),
      import('./metrics/index.js'),
      import('./qr/index.js'),
      import('./redirect/index.js'),
      import('./redirect/scan-journal.js'),
      import('./server.js'),
      import('./webhooks/index.js'),
      import('./webhooks/outbox.js'),
      import('./maintenance/visitor-days-job.js'),
    ]);
    const runsHttp = role === 'server';
    // Metrics cost nothing when nobody may read them: with METRICS_TOKEN unset there is no registry at all. A worker
    // serves its own on WORKER_METRICS_PORT (never PORT: a worker beside a server on one host would take its port).
    const metrics = config.metricsToken && (runsHttp || config.workerMetricsPort !== undefined) ? createMetrics() : undefined;
    service.metrics = metrics;
    // The direct connection's pool, when a pooler sits in front of DATABASE_URL (else it is the main pool).
    if (metrics && opened.directDb !== db) metrics.pools.watch('direct', opened.directDb);

    const deliversWebhooks = role === 'worker' || config.webhookWorker;
    if (deliversWebhooks) {
      const webhooks = createWebhookDelivery(
        { connectionString, directConnectionString, pooling, box, allowPrivateWebhookUrls: config.allowPrivateWebhookUrls, logger, metrics },
        overrides.webhookTuning,
      );
      stops.push((graceMs) => webhooks.stop(graceMs));
      await webhooks.start();
      service.webhooks = webhooks;
    }

    // Retention: one process at a time prunes (an advisory lock), so every instance and worker may run it.
    const without = new Set(overrides.withoutJobs ?? []);
    if (!without.has('pruning')) {
      const pruning = createPruningJob({ db, lockDb: opened.directDb, retention: config.retention, sessionIdleMs: config.dashboard.sessionIdleMs, logger });
      stops.push(() => pruning.stop());
      pruning.start();
    }
    // Each UTC day's visitor secret and visitor hashes are destroyed once the day has ended (idempotent: every
    // server and worker runs it, so it happens while any one of them runs).
    if (!without.has('visitor-days')) {
      const visitorDays = createVisitorDaysJob({ db, logger, now: overrides.now });
      stops.push(() => visitorDays.stop());
      visitorDays.start();
    }

    if (runsHttp) {
      // For the admin CLI, whose shell rarely has the server's environment: the links it prints use this SITE_URL.
      const siteUrlRecord = keepSiteUrlRecorded(db, config.siteUrl, (error) =>
        logger.warn({ err: error }, 'could not record SITE_URL for the admin CLI yet; trying again in 30 s'),
      );
      stops.push(async () => siteUrlRecord.stop());
      // Analytics: new scans are folded into the hourly rollup every few seconds (one instance at a time).
      if (!without.has('rollup')) {
        const rollup = createScanRollupJob({ db, logger });
        stops.push(() => rollup.stop());
        rollup.start();
      }
      // Bulk imports: confirmed files are worked through in batches by whichever instance claims them first.
      if (!without.has('imports')) {
        const imports = createImportJob({ db, logger, siteUrl: config.siteUrl });
        stops.push(() => imports.stop());
        imports.start();
      }
      const images = createQrImages(config);
      stops.push(() => images.close());
      service.images = images;
      // Where scans come from, in memory: the embedded DB-IP Lite Country database or GEOIP_DATABASE.
      const geo = openGeoLookup({ path: config.geoipDatabase, logger: logger.child({ part: 'redirect' }) });
      stops.push(async () => geo.close());
      const redirect = createRedirect({
        db,
        geo,
        trustProxy: config.trustProxy,
        now: overrides.now,
        directConnectionString,
        logger,
        metrics,
        recorder: { commitTimeoutMs: config.scanCommitTimeoutMs, maxBuffered: config.scanMemoryLimit, maxConcurrentBatches: config.scanWriteConcurrency },
        // One folder per database: a caller's own database (a test's) is told apart by its connection string.
        // The primary's identity (DATABASE_DIRECT_URL when a pooler is in front): putting PgBouncer in front of a
        // running install must not leave the journal of its last outage in a folder no instance reads any more.
        journal: { ...config.scanJournal, dir: journalDirFor(config.scanJournal.dir, overrides.database ? connectionString : (config.databaseDirectUrl ?? config.databaseUrl)) },
      });
      // Scans still in memory are written (with their outbox rows) before the worker stops: pushed after it.
      stops.push((graceMs) => redirect.stop(graceMs));
      await redirect.start();
      service.redirect = redirect;
      // Replicas only serve the server's reads (analytics, lists, exports); workers and the CLI have none to make.
      if (config.databaseReadUrls.length > 0) {
        const replicas = new ReadReplicas(
          db,
          config.databaseReadUrls.map((url) => ({
            name: replicaName(url),
            db: createDatabase(url, { logger: logger.child({ part: 'db' }), timeouts: config.databaseTimeouts, pooling }),
          })),
          logger.child({ part: 'db' }),
          { maxLagSeconds: config.readReplicaMaxLagSeconds, observer: metrics?.replicas },
        );
        replicas.start();
        stops.push(() => replicas.stop());
        metrics?.replicas.watch(replicas);
        service.reads = replicas;
      }
      const app = createApp({ config, db, reads: service.reads, logger, box, images, metrics, contractValidation: overrides.contractValidation });
      const server = await listen(createRequestListener(app, redirect.handler), config.port, overrides.host, {
        timeouts: config.httpTimeouts,
        connections: config.httpConnections,
        observer: metrics?.connections,
      });
      stops.push((graceMs) => server.close(graceMs));
      service.server = server;
    } else if (metrics) {
      metrics.pools.watch('main', db);
      metrics.outbox.watch(() => readOutboxBacklog(db));
      const server = await listen(metricsOnlyListener(metrics.registry, config.metricsToken!), config.workerMetricsPort!, overrides.host, config.httpTimeouts);
      stops.push(() => server.close(0));
      service.server = server;
    }
    if (service.server) service.origin = `http://${overrides.host ?? '127.0.0.1'}:${service.server.port}`;
    return service;
  } catch (error) {
    // Half started: stop what did start (the embedded database above all), then fail.
    await service.stop(0).catch(() => undefined);
    throw error;
  }
}

async function openService(
  config: Config,
  role: ServiceRole,
  logger: Logger,
  overrides: Omit<ServiceOptions, 'role'>,
): Promise<DatabaseConnection> {
  if (overrides.database) {
    const { db, connectionString } = overrides.database;
    return {
      db, connectionString, pooling: 'session', directDb: db, directConnectionString: connectionString,
      description: 'a database given by the caller', close: async () => undefined,
    };
  }
  // The CLI's commands are few and may run long: it goes straight to the primary, past any pooler.
  const target = role === 'admin' ? { ...config, databaseUrl: config.databaseDirectUrl ?? config.databaseUrl, databaseDirectUrl: undefined } : config;
  return openDatabase(target, {
    logger: logger.child({ part: 'db' }),
    // The server owns the embedded database it runs on; a worker or the CLI reuses a running server's, and stops it
    // on exit only if it started it. Neither creates one: pointed at the wrong DATA_DIR they must fail, not work
    // on an empty database.
    stopEmbedded: role === 'server' ? 'always' : 'if-started-here',
    createEmbedded: overrides.createEmbedded ?? role === 'server',
    // The CLI keeps the built-in timeouts, as it always has: DATABASE_*_TIMEOUT_MS tune the services' pools, and a
    // short statement timeout set for them must not cut an operator's long admin command.
    ...(role === 'admin' ? { maxConnections: 2 } : { timeouts: config.databaseTimeouts }),
  });
}
