import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import type { PlanName } from '../../src/accounts/plans.js';
import { createApp, createRequestListener } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Database } from '../../src/db/schema/index.js';
import { createMetrics, type Metrics } from '../../src/metrics/index.js';
import { createQrImages, type QrImages } from '../../src/qr/index.js';
import { createRedirect, type Redirect } from '../../src/redirect/index.js';
import { listen } from '../../src/server.js';
import { createWebhookDelivery, type WebhookDelivery, type WebhookDeliveryTuning } from '../../src/webhooks/index.js';
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

/** One key for every test app, so apps sharing a database read each other's webhook secrets. */
export const TEST_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 7);

/**
 * The real app on a loopback port, with responses validated against the contract: a handler that drifts
 * from openapi/v1.yaml answers 500 and fails the test that hit it.
 */
export async function startTestApp(
  database: { db: Database; connectionString: string },
  overrides: Partial<Config> = {},
  tuning: { webhooks?: WebhookDeliveryTuning } = {},
): Promise<TestApp> {
  const { db } = database;
  const config: Config = {
    ...loadConfig({}),
    validateResponses: true,
    logLevel: 'silent',
    siteUrl: 'https://qr.test',
    webhookSecretKey: TEST_WEBHOOK_SECRET_KEY,
    // Receivers in tests listen on loopback.
    allowPrivateWebhookUrls: true,
    ...overrides,
  };
  const box = new SecretBox(config.webhookSecretKey!);
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const images = createQrImages(config);
  const metrics = config.metricsToken ? createMetrics() : undefined;
  const app = createApp({ config, db, logger, box, images, metrics });
  const redirect = createRedirect({ db, connectionString: database.connectionString, logger, metrics });
  await redirect.start();
  const webhooks = config.webhookWorker
    ? createWebhookDelivery(
        { connectionString: database.connectionString, box, allowPrivateWebhookUrls: config.allowPrivateWebhookUrls, logger, metrics },
        tuning.webhooks,
      )
    : undefined;
  await webhooks?.start();
  // A port given in overrides is used (a dashboard test needs siteUrl to be the origin it browses); else any.
  const server = await listen(createRequestListener(app, redirect.handler), overrides.port ?? 0, '127.0.0.1', {
    timeouts: config.httpTimeouts,
    connections: config.httpConnections,
    observer: metrics?.connections,
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    origin,
    apiUrl: `${origin}/api/v1`,
    config,
    redirect,
    images,
    webhooks,
    box,
    metrics,
    close: async () => {
      await server.close(0);
      await redirect.stop(5_000);
      await webhooks?.stop(1_000);
      await images.close();
    },
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

/**
 * The usual setup of a test file: its own database and one app on it, started before the file's tests and closed
 * after them. `ready` receives both (assign them to the file's variables). `tuning` is startTestApp's; `start`
 * replaces startTestApp for apps that need more (the dashboard's, whose site URL is its own origin).
 */
export function useTestApp(
  ready: (started: { database: TestDatabase; app: TestApp }) => unknown,
  overrides: Partial<Config> = {},
  options: {
    tuning?: { webhooks?: WebhookDeliveryTuning };
    start?: (database: TestDatabase, overrides: Partial<Config>, tuning: { webhooks?: WebhookDeliveryTuning }) => Promise<TestApp>;
  } = {},
): void {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await (options.start ?? startTestApp)(database, overrides, options.tuning ?? {});
    await ready({ database, app });
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
  });
}
