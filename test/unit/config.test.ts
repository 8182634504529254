import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('uses the defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      siteUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      allowPrivateWebhookUrls: false,
      logLevel: 'info',
      validateResponses: false,
      shutdownGraceMs: 10_000,
    });
    expect(path.isAbsolute(config.dataDir)).toBe(true);
    expect(config.dataDir).toBe(path.resolve('data'));
    expect(config.dataDir.endsWith(`${path.sep}data`)).toBe(true);
  });

  it('reads every variable when set', () => {
    expect(
      loadConfig({
        PORT: '8080',
        SITE_URL: 'https://qr.example.com',
        DATA_DIR: '/var/lib/qroute',
        DATABASE_URL: 'postgres://u:p@db:5432/qroute',
        ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
        LOG_LEVEL: 'debug',
        VALIDATE_RESPONSES: '1',
        SHUTDOWN_GRACE_MS: '2500',
        WEBHOOK_SECRET_KEY: Buffer.alloc(32, 1).toString('base64'),
        WEBHOOK_WORKER: 'false',
      }),
    ).toMatchObject({
      port: 8080,
      siteUrl: 'https://qr.example.com',
      dataDir: '/var/lib/qroute',
      databaseUrl: 'postgres://u:p@db:5432/qroute',
      allowPrivateWebhookUrls: true,
      logLevel: 'debug',
      validateResponses: true,
      shutdownGraceMs: 2500,
      webhookSecretKey: Buffer.alloc(32, 1),
      webhookWorker: false,
    });
  });

  it('reads the direct and replica URLs beside DATABASE_URL, and refuses them without it or malformed, never echoing a password', () => {
    expect(loadConfig({
      DATABASE_URL: 'postgres://qroute:pw@pgbouncer:6432/qroute',
      DATABASE_DIRECT_URL: 'postgres://qroute:pw@primary:5432/qroute',
      DATABASE_READ_URL: ' postgres://qroute:pw@replica1:5432/qroute , postgresql://qroute:pw@replica2/qroute,',
      READ_REPLICA_MAX_LAG_SECONDS: '3',
    })).toMatchObject({
      databaseDirectUrl: 'postgres://qroute:pw@primary:5432/qroute',
      databaseReadUrls: ['postgres://qroute:pw@replica1:5432/qroute', 'postgresql://qroute:pw@replica2/qroute'],
      readReplicaMaxLagSeconds: 3,
    });
    expect(loadConfig({ DATABASE_URL: 'postgres://db/qroute' })).toMatchObject({ databaseDirectUrl: undefined, databaseReadUrls: [], readReplicaMaxLagSeconds: 10 });
    expect(() => loadConfig({ DATABASE_DIRECT_URL: 'postgres://primary/qroute' })).toThrow(/DATABASE_DIRECT_URL needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://replica/qroute' })).toThrow(/DATABASE_READ_URL needs DATABASE_URL/);
    for (const env of [
      { DATABASE_URL: 'postgres://db/qroute', DATABASE_READ_URL: 'postgres://replica/qroute,mysql://secret-pw@x/y' },
      { DATABASE_URL: 'postgres://db/qroute', DATABASE_DIRECT_URL: 'secret-pw@primary' },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).not.toThrow(/secret-pw/);
    }
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db/qroute', READ_REPLICA_MAX_LAG_SECONDS: '0' })).toThrow(/READ_REPLICA_MAX_LAG_SECONDS/);
  });

  it('reads the database and scan-memory limits', () => {
    const config = loadConfig({
      DATABASE_CONNECT_TIMEOUT_MS: '2000',
      DATABASE_STATEMENT_TIMEOUT_MS: '10000',
      DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0',
      SCAN_COMMIT_TIMEOUT_MS: '500',
      SCAN_MEMORY_LIMIT: '5000',
    });
    expect(config.databaseTimeouts).toEqual({ connectMs: 2_000, statementMs: 10_000, idleInTransactionMs: 0, queryMs: 15_000 });
    expect(config.scanCommitTimeoutMs).toBe(500);
    expect(config.scanMemoryLimit).toBe(5_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).databaseTimeouts.queryMs).toBe(0);
    expect(() => loadConfig({ SCAN_COMMIT_TIMEOUT_MS: '0' })).toThrow(/SCAN_COMMIT_TIMEOUT_MS must be an integer from 100/);
  });

  it.each([
    ['too short', Buffer.alloc(16, 1).toString('base64')],
    ['too long', Buffer.alloc(33, 1).toString('base64')],
    ['hex instead of base64', Buffer.alloc(32, 1).toString('hex')],
    ['not base64', `${'!'.repeat(43)}=`],
  ])('refuses a WEBHOOK_SECRET_KEY that is %s', (_, raw) => {
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: raw })).toThrow(/WEBHOOK_SECRET_KEY must be 32 bytes in base64/);
  });

  it('resolves a relative DATA_DIR against the working directory', () => {
    expect(loadConfig({ DATA_DIR: 'var/qroute' }).dataDir).toBe(path.resolve('var/qroute'));
  });

  it.each([
    ['https://qr.example.com/', 'https://qr.example.com'],
    ['https://qr.example.com', 'https://qr.example.com'],
    ['https://example.com/qr', 'https://example.com/qr'],
    ['https://example.com/qr/', 'https://example.com/qr'],
    ['https://example.com/qr//', 'https://example.com/qr'],
    ['https://example.com/a/b/', 'https://example.com/a/b'],
    ['HTTPS://QR.Example.COM/', 'https://qr.example.com'],
    ['https://qr.example.com:443/', 'https://qr.example.com'],
    ['http://localhost:8080/', 'http://localhost:8080'],
    ['  https://qr.example.com/  ', 'https://qr.example.com'],
  ])('reads SITE_URL %j as %j', (raw, siteUrl) => {
    expect(loadConfig({ SITE_URL: raw }).siteUrl).toBe(siteUrl);
  });

  it('makes SITE_URL follow PORT when SITE_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' }).siteUrl).toBe('http://localhost:8080');
  });

  it('keeps an explicit SITE_URL whatever PORT says', () => {
    expect(loadConfig({ PORT: '8080', SITE_URL: 'https://qr.example.com' }).siteUrl).toBe('https://qr.example.com');
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    [' true ', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ])('reads ALLOW_PRIVATE_WEBHOOK_URLS=%j as %s', (raw, value) => {
    expect(loadConfig({ ALLOW_PRIVATE_WEBHOOK_URLS: raw }).allowPrivateWebhookUrls).toBe(value);
  });

  it.each([
    ['PORT', 'abc', /PORT must be an integer from 0 to 65535, got "abc"/],
    ['PORT', '70000', /PORT must be an integer from 0 to 65535/],
    ['PORT', '65536', /PORT/],
    ['PORT', '-1', /PORT/],
    ['PORT', '80.5', /PORT/],
    ['SITE_URL', 'ftp://x', /SITE_URL must use http or https/],
    ['SITE_URL', 'qr.example.com', /SITE_URL must be an absolute http\(s\) URL/],
    ['SITE_URL', '/qr', /SITE_URL must be an absolute/],
    ['SITE_URL', 'https://qr.example.com/?ref=1', /SITE_URL must not carry credentials, a query or a fragment/],
    ['SITE_URL', 'https://qr.example.com/#top', /SITE_URL must not carry/],
    ['SITE_URL', 'https://user:pw@qr.example.com', /SITE_URL must not carry/],
    ['ALLOW_PRIVATE_WEBHOOK_URLS', 'maybe', /ALLOW_PRIVATE_WEBHOOK_URLS must be true or false, got "maybe"/],
    ['ALLOW_PRIVATE_WEBHOOK_URLS', 'yes', /ALLOW_PRIVATE_WEBHOOK_URLS/],
    ['VALIDATE_RESPONSES', 'on', /VALIDATE_RESPONSES/],
    ['SHUTDOWN_GRACE_MS', '600001', /SHUTDOWN_GRACE_MS/],
  ])('throws ConfigError for %s=%j', (name, value, message) => {
    const load = () => loadConfig({ [name]: value });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
  });

  it.each(['', '   '])('treats PORT, DATABASE_URL, LOG_LEVEL and the booleans set to %j as unset', (blank) => {
    expect(
      loadConfig({
        PORT: blank,
        DATABASE_URL: blank,
        ALLOW_PRIVATE_WEBHOOK_URLS: blank,
        LOG_LEVEL: blank,
        VALIDATE_RESPONSES: blank,
        SHUTDOWN_GRACE_MS: blank,
      }),
    ).toEqual(loadConfig({}));
  });

  it.each([
    ['SITE_URL', ''],
    ['SITE_URL', '   '],
    ['DATA_DIR', ''],
    ['DATA_DIR', '   '],
  ])('treats %s set to %j as unset', (name, blank) => {
    expect(loadConfig({ [name]: blank })).toEqual(loadConfig({}));
  });
});

describe('HTTP timeouts', () => {
  it('default to 10 s for headers and 30 s for the whole request', () => {
    expect(loadConfig({}).httpTimeouts).toEqual({ headersMs: 10_000, requestMs: 30_000 });
  });

  it('refuse a headers timeout longer than the request timeout, which Node would refuse at start', () => {
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' })).toThrow(/HTTP_HEADERS_TIMEOUT_MS/);
  });
});

describe('HTTP connection caps', () => {
  it('default to 10,000 in total and 256 per client address, with no per-address cap behind a proxy', () => {
    expect(loadConfig({}).httpConnections).toEqual({ maxTotal: 10_000, maxPerAddress: 256 });
    expect(loadConfig({ TRUST_PROXY: 'false' }).httpConnections.maxPerAddress).toBe(256);
    // Behind a load balancer every connection comes from it: a per-address cap would cap the whole service.
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).httpConnections.maxPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1', HTTP_MAX_CONNECTIONS_PER_ADDRESS: '50' }).httpConnections.maxPerAddress).toBe(50);
  });

  it('refuse a total below 1 and values that are not integers', () => {
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS: '0' })).toThrow(/HTTP_MAX_CONNECTIONS/);
    expect(() => loadConfig({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: 'many' })).toThrow(/HTTP_MAX_CONNECTIONS_PER_ADDRESS/);
  });
});

describe('retention', () => {
  it('keeps finished webhook deliveries 30 days, scans forever and unreferenced uploads 24 hours by default, pruning hourly', () => {
    expect(loadConfig({}).retention).toEqual({ webhookDeliveryDays: 30, scanDays: undefined, intervalMs: 3_600_000, unreferencedUploadHours: 24 });
  });

  it('reads WEBHOOK_DELIVERY_RETENTION_DAYS, SCAN_RETENTION_DAYS, PRUNE_INTERVAL_MINUTES and UNREFERENCED_UPLOAD_HOURS', () => {
    expect(loadConfig({ WEBHOOK_DELIVERY_RETENTION_DAYS: '7', SCAN_RETENTION_DAYS: '365', PRUNE_INTERVAL_MINUTES: '15', UNREFERENCED_UPLOAD_HOURS: '48' }).retention)
      .toEqual({ webhookDeliveryDays: 7, scanDays: 365, intervalMs: 900_000, unreferencedUploadHours: 48 });
  });

  it.each([
    ['WEBHOOK_DELIVERY_RETENTION_DAYS', '0'],
    ['SCAN_RETENTION_DAYS', '0'],
    ['SCAN_RETENTION_DAYS', '30d'],
    ['PRUNE_INTERVAL_MINUTES', '0'],
    ['UNREFERENCED_UPLOAD_HOURS', '0'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  it.each([
    [undefined, false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['loopback', 'loopback'],
    ['10.0.0.0/8, 172.16.0.0/12', '10.0.0.0/8, 172.16.0.0/12'],
  ])('reads TRUST_PROXY=%s as %s (the peer address is the client unless set)', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });
});
