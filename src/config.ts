import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isPlanName, PLAN_NAMES, type PlanName } from './accounts/plans.js';
import { DEFAULT_DATABASE_TIMEOUTS, QUERY_TIMEOUT_MARGIN_MS, type DatabaseTimeouts } from './db/database.js';
import { ConfigError } from './errors.js';
import type { LogFormat } from './logger.js';

/** Everything the service reads from its environment, typed and validated in one place. */
export interface Config {
  port: number;
  /** Public origin that serves short links, without a trailing slash (e.g. `https://qr.example.com`). */
  siteUrl: string;
  /**
   * Where siteUrl came from: SITE_URL; the running server's (what it recorded in the database, which the admin CLI
   * reads when its own environment has no SITE_URL, so the links it prints open); or PORT's localhost default.
   */
  siteUrlSource: 'SITE_URL' | 'server' | 'default';
  /** Where the embedded PostgreSQL keeps its files when `databaseUrl` is not set. */
  dataDir: string;
  /** An external PostgreSQL; when unset the service runs an embedded one in `dataDir`. */
  databaseUrl: string | undefined;
  /**
   * DATABASE_DIRECT_URL: a direct connection to the primary, for what needs a session of its own (LISTEN/NOTIFY,
   * session advisory locks, migrations, the admin CLI). When set, DATABASE_URL (and each read replica's URL) is
   * used as a transaction-mode pool such as PgBouncer's: no startup parameters, no named prepared statements, no
   * session settings (src/db/pooling.ts). Unset: DATABASE_URL is used for everything, as a direct connection.
   */
  databaseDirectUrl: string | undefined;
  /**
   * DATABASE_READ_URL: streaming replicas (comma-separated) for reads that may be slightly stale: dashboard
   * analytics, lists and CSV exports, the API's scans list (src/db/read-replicas.ts). Empty: the primary reads all.
   */
  databaseReadUrls: string[];
  /** READ_REPLICA_MAX_LAG_SECONDS: a replica further behind than this is not read from until it catches up. */
  readReplicaMaxLagSeconds: number;
  allowPrivateWebhookUrls: boolean;
  /**
   * 32-byte key that encrypts webhook secrets at rest. Required with `databaseUrl` (every instance must share
   * it); with the embedded database it is generated into `dataDir` when unset.
   */
  webhookSecretKey: Buffer | undefined;
  /** Run the webhook delivery worker inside the server (off when workers run alone: `npm run worker`). */
  webhookWorker: boolean;
  logLevel: string;
  /** LOG_FORMAT: `json`, `pretty`, or `auto` (the default): readable lines on a terminal, JSON otherwise. */
  logFormat: LogFormat;
  /** Validate every response against the contract. On in tests; costs CPU in production. */
  validateResponses: boolean;
  /** How long SIGTERM waits for in-flight requests before closing connections. */
  shutdownGraceMs: number;
  /** How long to wait on PostgreSQL before treating it as unavailable (see db/database.ts). */
  databaseTimeouts: DatabaseTimeouts;
  /** A scan batch not committed within this is answered from memory (the degraded mode). */
  scanCommitTimeoutMs: number;
  /** Scans kept in memory while the database cannot take them; past it the oldest are dropped (and logged). */
  scanMemoryLimit: number;
  /** Scan batches written at once, each on its own connection (SCAN_WRITE_CONCURRENCY). */
  scanWriteConcurrency: number;
  /**
   * Where scans answered without a commit are journaled (fsync'd before their 302), and the most bytes one
   * process's file may hold; `maxBytes` 0 turns the journal off. The directory is per host: never a network share.
   */
  scanJournal: { dir: string; maxBytes: number };
  /** What the pruning job (src/maintenance/) deletes, and how often it runs. */
  retention: RetentionConfig;
  /** QR image reads: the per-account limit (per instance), the render pool and its cache. */
  imageReads: { perMinute: number; renderThreads: number; renderQueue: number; cacheBytes: number };
  /**
   * How long a client may take to send a request's headers, and the whole request, before the server answers
   * 408 and closes the connection: a client dripping bytes holds a socket and its memory until then.
   */
  httpTimeouts: { headersMs: number; requestMs: number };
  /**
   * Caps on open TCP connections, in total and per client address (an IPv6 client by its /64); a connection over
   * either is closed on arrival. `maxPerAddress` 0 is no per-address cap (the default behind TRUST_PROXY, where
   * every connection comes from the proxy).
   */
  httpConnections: { maxTotal: number; maxPerAddress: number };
  /**
   * The bearer token `GET /metrics` (Prometheus) requires; when unset, /metrics is not served at all. At least 16
   * characters: the endpoint tells anyone holding it how busy every account's codes are.
   */
  metricsToken: string | undefined;
  /** The standalone worker's own /metrics port (its webhook counters live in its process); unset: none. */
  workerMetricsPort: number | undefined;
  /**
   * Express's `trust proxy`: which hops may set X-Forwarded-For. Off by default (the peer address is the client);
   * behind a load balancer set it (`1`, `loopback`, a CIDR list) or every sign-in counts against the balancer's
   * address in the per-address login limit.
   */
  trustProxy: boolean | number | string;
  /**
   * GEOIP_DATABASE: the operator's MMDB file (GeoLite2-City, DB-IP Lite City, IPinfo Lite) that places scans by
   * address; unset: the embedded DB-IP Lite Country database (src/audience/geo-lookup.ts). A replaced file is read
   * again without a restart.
   */
  geoipDatabase: string | undefined;
  /** The web dashboard: mail for invitations and password resets, self-service sign-up, session lifetimes. */
  dashboard: DashboardConfig;
  /** Uploaded files (src/files/): the largest single file, and the live bytes one account may keep. */
  files: { maxFileBytes: number; accountStorageBytes: number };
}

export interface DashboardConfig {
  /** `smtp://` or `smtps://` URL of the mail server (credentials in it); unset: links are shown instead of mailed. */
  smtpUrl: string | undefined;
  /** The From of every mail: `MAIL_FROM`, else `qroute <no-reply@<SITE_URL's host>>`. */
  mailFrom: string;
  /** `open`: anyone can create an account at /signup; `closed` (default): accounts come from the operator. */
  signup: 'open' | 'closed';
  /** The plan a self-service account starts on. */
  signupPlan: PlanName;
  /** A session unused this long ends (idle expiry). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, used or not (absolute expiry). */
  sessionMaxMs: number;
}

/**
 * Finished webhook deliveries (with their attempts) are kept `webhookDeliveryDays` after they ended; scans
 * `scanDays` when set, forever when not (the counters stay either way). Idempotency keys go after their 24 h,
 * write-rate events after an hour, scan batch ids after 7 days: none of those is history anyone reads.
 */
export interface RetentionConfig {
  webhookDeliveryDays: number;
  scanDays: number | undefined;
  intervalMs: number;
  /** Uploads nothing refers to are deleted once this old (UNREFERENCED_UPLOAD_HOURS; unset in a test: 24). */
  unreferencedUploadHours?: number;
}

/** A setting is missing or malformed: the process says which and exits, without a stack (see lifecycle.ts). */
export { ConfigError } from './errors.js';

type Env = Record<string, string | undefined>;

/**
 * `serverSiteUrl`: the SITE_URL a running server recorded (src/db/site-url.ts), for the admin CLI: used when `env`
 * sets none, so the links it prints are the server's rather than localhost.
 */
export function loadConfig(env: Env = process.env, recorded: { serverSiteUrl?: string | undefined } = {}): Config {
  const port = integer(env, 'PORT', 3000, { min: 0, max: 65535 });
  const siteUrlSource = nonEmpty(env.SITE_URL) ? 'SITE_URL' : recorded.serverSiteUrl ? 'server' : 'default';
  const siteUrl = siteUrlSource === 'SITE_URL' ? origin(nonEmpty(env.SITE_URL)!, 'SITE_URL')
    : siteUrlSource === 'server' ? origin(recorded.serverSiteUrl!, "the running server's SITE_URL (recorded in the database)")
    : `http://localhost:${port}`;
  return {
    port,
    siteUrl,
    siteUrlSource,
    dataDir: path.resolve(nonEmpty(env.DATA_DIR) ?? './data'),
    databaseUrl: nonEmpty(env.DATABASE_URL),
    ...databaseTopology(env),
    allowPrivateWebhookUrls: boolean(env, 'ALLOW_PRIVATE_WEBHOOK_URLS', false),
    webhookSecretKey: key32(env, 'WEBHOOK_SECRET_KEY'),
    webhookWorker: boolean(env, 'WEBHOOK_WORKER', true),
    logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
    logFormat: logFormat(nonEmpty(env.LOG_FORMAT)),
    validateResponses: boolean(env, 'VALIDATE_RESPONSES', false),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, { min: 0, max: 600_000 }),
    databaseTimeouts: databaseTimeouts(env),
    scanCommitTimeoutMs: integer(env, 'SCAN_COMMIT_TIMEOUT_MS', 2_000, { min: 100, max: 60_000 }),
    scanMemoryLimit: integer(env, 'SCAN_MEMORY_LIMIT', 100_000, { min: 1_000, max: 10_000_000 }),
    scanWriteConcurrency: integer(env, 'SCAN_WRITE_CONCURRENCY', 2, { min: 1, max: 16 }),
    scanJournal: {
      // DATA_DIR's journal/ with an external database too: a local directory, like the embedded cluster's.
      dir: path.resolve(nonEmpty(env.SCAN_JOURNAL_DIR) ?? path.join(nonEmpty(env.DATA_DIR) ?? './data', 'journal')),
      maxBytes: integer(env, 'SCAN_JOURNAL_MAX_MB', 256, { min: 0, max: 1_048_576 }) * 1024 * 1024,
    },
    retention: {
      webhookDeliveryDays: integer(env, 'WEBHOOK_DELIVERY_RETENTION_DAYS', 30, { min: 1, max: 36_500 }),
      scanDays: optionalInteger(env, 'SCAN_RETENTION_DAYS', { min: 1, max: 36_500 }),
      intervalMs: integer(env, 'PRUNE_INTERVAL_MINUTES', 60, { min: 1, max: 10_080 }) * 60_000,
      unreferencedUploadHours: integer(env, 'UNREFERENCED_UPLOAD_HOURS', 24, { min: 1, max: 8_760 }),
    },
    imageReads: {
      perMinute: integer(env, 'IMAGE_READS_PER_MINUTE', 300, { min: 1, max: 1_000_000 }),
      // One core stays for the event loop (redirects, the API).
      renderThreads: integer(env, 'IMAGE_RENDER_THREADS', Math.max(1, availableParallelism() - 1), { min: 1, max: 64 }),
      renderQueue: integer(env, 'IMAGE_RENDER_QUEUE', 32, { min: 0, max: 10_000 }),
      cacheBytes: integer(env, 'IMAGE_CACHE_MB', 32, { min: 0, max: 4_096 }) * 1024 * 1024,
    },
    httpTimeouts: httpTimeouts(env),
    httpConnections: httpConnections(env, trustProxy(nonEmpty(env.TRUST_PROXY)) !== false),
    metricsToken: metricsToken(env),
    workerMetricsPort: optionalInteger(env, 'WORKER_METRICS_PORT', { min: 0, max: 65535 }),
    trustProxy: trustProxy(nonEmpty(env.TRUST_PROXY)),
    geoipDatabase: optionalPath(env, 'GEOIP_DATABASE'),
    dashboard: dashboard(env, siteUrl),
    files: {
      maxFileBytes: integer(env, 'FILE_MAX_MB', 50, { min: 1, max: 10_240 }) * 1024 * 1024,
      accountStorageBytes: integer(env, 'ACCOUNT_STORAGE_MB', 500, { min: 1, max: 10_485_760 }) * 1024 * 1024,
    },
  };
}

function dashboard(env: Env, siteUrl: string): DashboardConfig {
  const signup = nonEmpty(env.SIGNUP)?.toLowerCase() ?? 'closed';
  if (signup !== 'open' && signup !== 'closed') throw new ConfigError(`SIGNUP must be open or closed, got "${signup}"`);
  const signupPlan = nonEmpty(env.SIGNUP_PLAN) ?? 'free';
  if (!isPlanName(signupPlan)) throw new ConfigError(`SIGNUP_PLAN must be one of ${PLAN_NAMES.join(', ')}, got "${signupPlan}"`);
  return {
    smtpUrl: smtpUrl(env),
    mailFrom: nonEmpty(env.MAIL_FROM) ?? `qroute <no-reply@${new URL(siteUrl).hostname}>`,
    signup,
    signupPlan,
    // 12 h idle: a working day away from the tab; 30 days absolute: a stolen cookie dies within a month at worst.
    sessionIdleMs: integer(env, 'SESSION_IDLE_MINUTES', 720, { min: 5, max: 525_600 }) * 60_000,
    sessionMaxMs: integer(env, 'SESSION_MAX_DAYS', 30, { min: 1, max: 365 }) * 86_400_000,
  };
}

function smtpUrl(env: Env): string | undefined {
  const raw = nonEmpty(env.SMTP_URL);
  if (raw === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(raw);
  } catch {
    url = undefined;
  }
  // Never echo the value: it usually holds the mail account's password.
  if ((url?.protocol !== 'smtp:' && url?.protocol !== 'smtps:') || !url.hostname) {
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://user:password@mail.example.com:587');
  }
  return raw;
}

function metricsToken(env: Env): string | undefined {
  const token = nonEmpty(env.METRICS_TOKEN);
  if (token !== undefined && token.length < 16) {
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters (openssl rand -hex 32)');
  }
  return token;
}

function httpTimeouts(env: Env): Config['httpTimeouts'] {
  // 10 s for headers is generous for a phone on a poor network (headers are a few hundred bytes); 30 s for the
  // whole request covers a 64 KB body (the API's limit) at about 2 KB/s.
  const headersMs = integer(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, { min: 100, max: 600_000 });
  const requestMs = integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, { min: 100, max: 3_600_000 });
  // Node refuses a headers timeout longer than the request timeout (the headers are part of the request).
  if (headersMs > requestMs) {
    throw new ConfigError(`HTTP_HEADERS_TIMEOUT_MS (${headersMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestMs})`);
  }
  return { headersMs, requestMs };
}

function httpConnections(env: Env, behindProxy: boolean): Config['httpConnections'] {
  return {
    // Each connection costs a file descriptor and some memory; 10,000 stays inside a raised `ulimit -n` (the
    // embedded PostgreSQL and the pools need theirs too) and far above what one instance answers at once.
    maxTotal: integer(env, 'HTTP_MAX_CONNECTIONS', 10_000, { min: 1, max: 1_000_000 }),
    // 256: a browser opens 6, a load test or a busy office behind one NAT address a few dozen to a hundred or so;
    // one client holding thousands idle is the abuse this stops. Behind a proxy every peer is the proxy: no cap.
    maxPerAddress: integer(env, 'HTTP_MAX_CONNECTIONS_PER_ADDRESS', behindProxy ? 0 : 256, { min: 0, max: 1_000_000 }),
  };
}

/** DATABASE_DIRECT_URL and DATABASE_READ_URL, which only make sense beside DATABASE_URL (not the embedded database). */
function databaseTopology(env: Env): Pick<Config, 'databaseDirectUrl' | 'databaseReadUrls' | 'readReplicaMaxLagSeconds'> {
  const databaseUrl = nonEmpty(env.DATABASE_URL);
  const directUrl = nonEmpty(env.DATABASE_DIRECT_URL);
  const readUrls = (nonEmpty(env.DATABASE_READ_URL) ?? '').split(',').map((each) => each.trim()).filter((each) => each !== '');
  for (const [name, set] of [['DATABASE_DIRECT_URL', directUrl !== undefined], ['DATABASE_READ_URL', readUrls.length > 0]] as const) {
    if (set && databaseUrl === undefined) throw new ConfigError(`${name} needs DATABASE_URL: the embedded database has no pooler or replicas`);
  }
  for (const [name, url] of [['DATABASE_DIRECT_URL', directUrl], ...readUrls.map((url) => ['DATABASE_READ_URL', url] as const)] as const) {
    if (url !== undefined) postgresUrl(name, url);
  }
  return {
    databaseDirectUrl: directUrl,
    databaseReadUrls: readUrls,
    // At least 2: lag is known to within the 1 s probe interval, so a 1 s limit would leave a current replica unused half the time.
    readReplicaMaxLagSeconds: integer(env, 'READ_REPLICA_MAX_LAG_SECONDS', 10, { min: 2, max: 86_400 }),
  };
}

/** A postgres:// or postgresql:// URL; the error never echoes the value (it usually holds a password). */
function postgresUrl(name: string, raw: string): void {
  let protocol: string | undefined;
  try {
    protocol = new URL(raw).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') {
    throw new ConfigError(`${name} must be postgres:// URLs (comma-separated for DATABASE_READ_URL), e.g. postgres://qroute:password@replica1:5432/qroute`);
  }
}

function databaseTimeouts(env: Env): DatabaseTimeouts {
  const defaults = DEFAULT_DATABASE_TIMEOUTS;
  const statementMs = integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', defaults.statementMs, { min: 0, max: 3_600_000 });
  return {
    connectMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', defaults.connectMs, { min: 100, max: 600_000 }),
    statementMs,
    idleInTransactionMs: integer(env, 'DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS', defaults.idleInTransactionMs, { min: 0, max: 3_600_000 }),
    // Past the statement timeout, so a live server always answers first (with its own cancellation); 0 is "none".
    queryMs: statementMs === 0 ? 0 : statementMs + QUERY_TIMEOUT_MARGIN_MS,
  };
}

function logFormat(value: string | undefined): LogFormat {
  const format = value?.toLowerCase() ?? 'auto';
  if (format !== 'json' && format !== 'pretty' && format !== 'auto') throw new ConfigError(`LOG_FORMAT must be json, pretty or auto, got "${value}"`);
  return format;
}

/** `true`/`false`, a hop count, or Express's names and CIDR lists (`loopback`, `10.0.0.0/8, 172.16.0.0/12`). */
function trustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/** An absolute path (relative ones are from the working directory), or undefined when unset. */
function optionalPath(env: Env, name: string): string | undefined {
  const raw = nonEmpty(env[name]);
  return raw === undefined ? undefined : path.resolve(raw);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

function optionalInteger(env: Env, name: string, range: { min: number; max: number }): number | undefined {
  return nonEmpty(env[name]) === undefined ? undefined : integer(env, name, 0, range);
}

function integer(env: Env, name: string, fallback: number, range: { min: number; max: number }): number {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new ConfigError(`${name} must be an integer from ${range.min} to ${range.max}, got "${raw}"`);
  }
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = nonEmpty(env[name])?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function key32(env: Env, name: string): Buffer | undefined {
  const raw = nonEmpty(env[name]);
  if (raw === undefined) return undefined;
  // Buffer.from ignores characters outside base64, so check the shape first: 32 bytes are 43 chars and one `=`.
  const key = /^[A-Za-z0-9+/]{43}=?$/.test(raw) ? Buffer.from(raw, 'base64') : undefined;
  if (key?.length !== 32) {
    throw new ConfigError(`${name} must be 32 bytes in base64 (openssl rand -base64 32)`);
  }
  return key;
}

function origin(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`${name} must use http or https, got "${raw}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new ConfigError(`${name} must not carry credentials, a query or a fragment, got "${raw}"`);
  }
  // Keep a path prefix (a service mounted under /qr), drop the trailing slash so `${siteUrl}/r/…` is clean.
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
