import pino, { type Logger } from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import type { PlanName } from '../../src/accounts/plans.js';
import { type ContractValidation, createContractValidation } from '../../src/api/contract-validation.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Database } from '../../src/db/schema/index.js';
import type { Metrics } from '../../src/metrics/index.js';
import type { QrImages } from '../../src/qr/index.js';
import type { Redirect } from '../../src/redirect/index.js';
import { createService, type ServiceOptions } from '../../src/service.js';
import type { WebhookDelivery, WebhookDeliveryTuning } from '../../src/webhooks/index.js';
import { SecretBox } from '../../src/webhooks/secret-box.js';
import { createClient, type QrouteClient } from '../../sdk/src/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestApp {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** `<origin>/api/v1` */
  apiUrl: string;
  config: Config;
  redirect: Redirect;
  images: QrImages;
  /** Undefined when the app runs without a worker (`webhookWorker: false`). */
  webhooks: WebhookDelivery | undefined;
  box: SecretBox;
  /** This app's own registry, when started with `metricsToken` (as main does). */
  metrics: Metrics | undefined;
  close(): Promise<void>;
}

/** What a test may change beyond settings: webhook retry and timeouts, and jobs it runs by hand. */
export interface TestAppTuning {
  webhooks?: WebhookDeliveryTuning;
  withoutJobs?: ServiceOptions['withoutJobs'];
  /** The app's logger; by default a silent one (TEST_LOG_LEVEL shows it). */
  logger?: Logger;
  /** The clock scans are recorded by and visitor days turn by (a test moves it to begin a new UTC day). */
  now?: () => number;
}

/**
 * The contract's validation, built once per setting in each test worker and given to every app it starts, as one
 * production process builds one for its one app: building it for each of the ~200 apps of a run took about 60 s of
 * the suite's CPU (bundling the contract, then compiling each operation's validators again on its first request).
 */
const contractValidations = new Map<boolean, ContractValidation>();
function sharedContractValidation(validateResponses: boolean): ContractValidation {
  let validation = contractValidations.get(validateResponses);
  if (!validation) {
    validation = createContractValidation({ validateResponses });
    contractValidations.set(validateResponses, validation);
  }
  return validation;
}

/** One key for every test app, so apps sharing a database read each other's webhook secrets. */
export const TEST_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7);

/**
 * How long a test waits for another instance's lookup cache to learn of a change (a NOTIFY on commit, read by that
 * instance's LISTEN connection): half the cache's 10 s lifetime, so only the notice can make it in time. 2-3 s was
 * too tight with the suite sharing 2 cores.
 */
export const CHANGE_NOTICE_TIMEOUT_MS = 5_000;

/**
 * The real service on a loopback port, built by the composition root production uses (src/service.ts: the API,
 * dashboard, short links with their journal, the webhook worker and the background jobs), on the test's own
 * database, with responses validated against the contract: a handler that drifts from openapi/v1.yaml answers 500
 * and fails the test that hit it. `tuning.withoutJobs` leaves out a job a test runs by hand.
 */
export async function startTestApp(
  database: { db: Database; connectionString: string },
  overrides: Partial<Config> = {},
  tuning: TestAppTuning = {},
): Promise<TestApp> {
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    validateResponses: true,
    logLevel: 'silent',
    siteUrl: 'https://qr.test',
    webhookSecretKey: TEST_WEBHOOK_SECRET_KEY,
    // Receivers in tests listen on loopback.
    allowPrivateWebhookUrls: true,
    // Any free port, unless given (a dashboard test needs siteUrl to be the origin it browses).
    port: 0,
    // The run's temporary journal folder (test/support/global-setup.ts), never the repository's ./data.
    scanJournal: { ...defaults.scanJournal, dir: process.env.SCAN_JOURNAL_DIR ?? defaults.scanJournal.dir },
    ...overrides,
  };
  const box = new SecretBox(config.webhookSecretKey!);
  const service = await createService(config, {
    role: 'server',
    box,
    database,
    host: '127.0.0.1',
    logger: tuning.logger ?? pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    webhookTuning: tuning.webhooks,
    withoutJobs: tuning.withoutJobs,
    now: tuning.now,
    contractValidation: sharedContractValidation(config.validateResponses),
  });
  const origin = service.origin!;
  return {
    origin,
    apiUrl: `${origin}/api/v1`,
    config,
    redirect: service.redirect!,
    images: service.images!,
    webhooks: service.webhooks,
    box,
    metrics: service.metrics,
    close: () => service.stop(1_000),
  };
}

export interface TestAccount {
  accountId: string;
  keyId: string;
  apiKey: string;
  client: QrouteClient;
}

/** An account with one API key, and an SDK client for it against `app`. */
export async function createTestAccount(
  db: Database,
  app: TestApp,
  options: { plan?: PlanName; codeLimit?: number } = {},
): Promise<TestAccount> {
  const account = await createAccount(db, { name: 'Test account', plan: options.plan ?? 'business', codeLimit: options.codeLimit });
  const key = await createApiKey(db, account.id);
  return {
    accountId: account.id,
    keyId: key.id,
    apiKey: key.key,
    client: createClient({ baseUrl: app.apiUrl, apiKey: key.key }),
  };
}

/** A raw request, for what a typed client cannot send (bad JSON, wrong headers). */
export async function rawRequest(
  app: Pick<TestApp, 'apiUrl'>,
  path: string,
  init: { method?: string; apiKey?: string; body?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const response = await fetch(`${app.apiUrl}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.apiKey && { Authorization: `Bearer ${init.apiKey}` }),
      ...(init.body !== undefined && { 'Content-Type': 'application/json' }),
      ...init.headers,
    },
    body: init.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** What useTestApp gives a test file. */
export interface StartedTestApp {
  database: TestDatabase;
  app: TestApp;
  /** Another app on the same database (a second instance, or one configured otherwise), closed with the first. */
  startAnother(overrides?: Partial<Config>, tuning?: TestAppTuning): Promise<TestApp>;
}

/**
 * The usual setup of a test file: its own database and one app on it, started before the file's tests and closed
 * after them. `ready` receives both (assign them to the file's variables). `tuning` is startTestApp's; `start`
 * replaces startTestApp for apps that need more (the dashboard's, whose site URL is its own origin). `overrides`
 * may be a function, read when the app starts, for config naming something an earlier hook started (a mail server).
 */
export function useTestApp(
  ready: (started: StartedTestApp) => unknown,
  overrides: Partial<Config> | (() => Partial<Config>) = {},
  options: {
    tuning?: TestAppTuning;
    start?: (database: TestDatabase, overrides: Partial<Config>, tuning: TestAppTuning) => Promise<TestApp>;
  } = {},
): void {
  const start = options.start ?? startTestApp;
  let database: TestDatabase | undefined;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
    const opened = database;
    const startAnother = async (more: Partial<Config> = {}, tuning: TestAppTuning = {}) => {
      const app = await start(opened, more, tuning);
      apps.push(app);
      return app;
    };
    const app = await startAnother(typeof overrides === 'function' ? overrides() : overrides, options.tuning ?? {});
    await ready({ database, app, startAnother });
  });
  afterAll(async () => {
    for (const app of apps.splice(0).reverse()) await app.close();
    await database?.destroy();
  });
}
