import { execFile as execFileCallback, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../support/cli.js';
import { builtEntry } from '../support/processes.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, startTestApp, TEST_WEBHOOK_SECRET_KEY, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, verifyServiceSignature } from '../support/webhook-receiver.js';
import { freePort } from '../../src/net.js';
import { isUserError, runCommand } from '../../src/cli/commands.js';
import { AttemptFailedError } from '../../src/cli/webhook-commands.js';
import { loadConfig } from '../../src/config.js';
import { loadSecretBox } from '../../src/webhooks/secret-box.js';

const execFile = promisify(execFileCallback);
const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TIMEOUT = { timeout: 60_000 };


/*
 * Which commands run as real processes here: the ones whose behaviour lives in the process (src/cli/main.ts): JSON
 * alone on stdout and the database line on stderr with exit 0, a refusal's exit 1 with its message on stderr and
 * nothing on stdout, a failed delivery attempt's outcome on stdout with exit 1, a missing setting's exit 1, usage
 * with exit 0 and 2, and one command of each family (accounts, webhook, maintenance; keys in the embedded block below).
 * Every other behaviour is the same command in this process (`admin`, `refusal`), since a process is about a second
 * of CPU spent starting node and the suite is near its CI budget: main.ts prints exactly what runCommand returns.
 */
describe('admin CLI with DATABASE_URL', TIMEOUT, () => {
  let database: TestDatabase;
  let app: TestApp;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await createTestDatabase();
    // No worker in the app: deliveries wait for the CLI, so what it prints is deterministic.
    // `maintenance prune` is what a test checks here; the app's own pruning job would race it for the prune lock.
    app = await startTestApp(database, { webhookWorker: false }, { withoutJobs: ['pruning'] });
    env = {
      ...process.env,
      DATABASE_URL: database.connectionString,
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY.toString('base64'),
      ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
    };
  });
  afterAll(async () => {
    await app?.close();
    await database?.destroy();
  });

  /** The command in this process, with the settings `environment` gives the CLI; what it prints, parsed (dates as the ISO strings printed). */
  async function admin(args: string[], environment: NodeJS.ProcessEnv = env): Promise<any> {
    const config = loadConfig(environment);
    const result = await runCommand({ db: database.db, config, secretBox: () => loadSecretBox(config) }, args);
    return JSON.parse(JSON.stringify(result));
  }

  /** What the command in this process was refused with (undefined when it was not). */
  async function refusal(args: string[], environment: NodeJS.ProcessEnv = env): Promise<unknown> {
    return admin(args, environment).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  /** A refusal as the operator gets it: a mistake of theirs (isUserError: printed as "error: <message>", exit 1, not a crash). */
  async function expectRefused(args: string[], message: string | RegExp, environment: NodeJS.ProcessEnv = env): Promise<void> {
    const refused = await refusal(args, environment);
    expect(isUserError(refused), String(refused)).toBe(true);
    if (typeof message === 'string') expect((refused as Error).message).toBe(message);
    else expect((refused as Error).message).toMatch(message);
  }

  /** A delivery attempt that failed: printed like a success (its outcome), then exit 1 with the message (main.ts). */
  async function failedAttempt(args: string[]): Promise<{ outcome: any; message: string }> {
    const refused = await refusal(args);
    expect(refused, String(refused)).toBeInstanceOf(AttemptFailedError);
    return { outcome: JSON.parse(JSON.stringify((refused as AttemptFailedError).outcome)), message: (refused as Error).message };
  }

  async function countAccounts(): Promise<number> {
    const row = await database.db.selectFrom('accounts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async function createAccountWithKey(): Promise<{ accountId: string; keyId: string; key: string }> {
    const account = await admin(['accounts', 'create', '--name', 'Acme']);
    const key = await admin(['keys', 'create', '--account', account.id]);
    return { accountId: account.id, keyId: key.id, key: key.key };
  }

  it('creates a Business account with the default limit of 1000 codes, printing only JSON and which database on stderr', async () => {
    const result = await runCli(['accounts', 'create', '--name', 'Acme'], env);
    expect(result.code).toBe(0);
    const url = new URL(database.connectionString);
    // Host, port, database and user tell databases apart; the password never appears.
    expect(result.stderr).toBe(`qroute admin: using PostgreSQL ${url.username}@${url.host}${url.pathname} (DATABASE_URL)\n`);
    expect(result.stderr).not.toContain(decodeURIComponent(url.password));
    const account = JSON.parse(result.stdout);
    expect(account).toEqual({
      id: expect.stringMatching(/^acc_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Acme',
      plan: 'business',
      codeLimit: 1000,
      codeLimitOverride: null,
      codeCount: 0,
      createdAt: expect.stringMatching(ISO_UTC),
    });
    const shown = await admin(['accounts', 'show', '--id', account.id]);
    expect(shown).toEqual(account);
  });

  it.each([
    ['separate values', ['--name', 'Small shop', '--plan', 'free', '--code-limit', '5']],
    ['name=value flags', ['--name=Small shop', '--plan=free', '--code-limit=5']],
  ])('creates an account with its own plan and code limit (%s)', async (_label, flags) => {
    const account = await admin(['accounts', 'create', ...flags]);
    expect(account).toMatchObject({ name: 'Small shop', plan: 'free', codeLimit: 5, codeLimitOverride: 5, codeCount: 0 });
  });

  it('creates an API key that authenticates against the API', async () => {
    const account = await admin(['accounts', 'create', '--name', 'Acme']);
    const created = await admin(['keys', 'create', '--account', account.id]);
    expect(created).toEqual({
      id: expect.stringMatching(/^key_[0-9A-HJKMNP-TV-Z]{26}$/),
      accountId: account.id,
      key: expect.stringMatching(/^qrk_[0-9A-Za-z]{38}$/),
      prefix: created.key.slice(0, 8),
      lastFour: created.key.slice(-4),
      createdAt: expect.stringMatching(ISO_UTC),
    });
    const res = await rawRequest(app, '/qrcodes', { apiKey: created.key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });

  it('revokes a key so that it answers 401 invalid_api_key', async () => {
    const { keyId, key } = await createAccountWithKey();
    expect((await rawRequest(app, '/qrcodes', { apiKey: key })).status).toBe(200);
    const revoked = await admin(['keys', 'revoke', '--id', keyId]);
    expect(revoked).toEqual({ id: keyId, revokedAt: expect.stringMatching(ISO_UTC) });
    const res = await rawRequest(app, '/qrcodes', { apiKey: key });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('invalid_api_key');
    // Revoking again is harmless and keeps the first time.
    expect(await admin(['keys', 'revoke', '--id', keyId])).toEqual(revoked);
  });

  it('moves an account to a plan without the API so that its key answers 403 api_not_available_on_plan', async () => {
    const { accountId, key } = await createAccountWithKey();
    const account = await admin(['accounts', 'set-plan', '--id', accountId, '--plan', 'starter']);
    expect(account).toMatchObject({ id: accountId, plan: 'starter', codeLimit: 50 });
    const res = await rawRequest(app, '/qrcodes', { apiKey: key });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('api_not_available_on_plan');

    await admin(['accounts', 'set-plan', '--id', accountId, '--plan', 'business']);
    expect((await rawRequest(app, '/qrcodes', { apiKey: key })).status).toBe(200);
  });

  it('sets a code limit that the API enforces, and goes back to the plan default', async () => {
    const { accountId, key } = await createAccountWithKey();
    const limited = await admin(['accounts', 'set-code-limit', '--id', accountId, '--code-limit', '2']);
    expect(limited).toMatchObject({ id: accountId, codeLimit: 2, codeLimitOverride: 2 });

    const create = () =>
      rawRequest(app, '/qrcodes', { method: 'POST', apiKey: key, body: JSON.stringify({ name: 'n', url: 'https://example.com' }) });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(201);
    const third = await create();
    expect(third.status).toBe(402);
    expect(third.body.error).toMatchObject({ code: 'plan_limit_reached', details: { limit: 2, used: 2 } });

    const reset = await admin(['accounts', 'set-code-limit', '--id', accountId, '--code-limit', 'default']);
    expect(reset).toMatchObject({ codeLimit: 1000, codeLimitOverride: null, codeCount: 2 });
    expect((await create()).status).toBe(201);
  });

  // How a refusal reaches the operator (exit code 1, the database line and the message on stderr, nothing on stdout)
  // is one path in main.ts for every refusal: one goes through a real process.
  it('exits non-zero with a message on stderr and nothing on stdout for an unknown account', async () => {
    const before = await countAccounts();
    const result = await runCli(['accounts', 'show', '--id', 'acc_nope'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^qroute admin: using .*\n/);
    expect(result.stderr.split('\n').slice(1).join('\n')).toBe('error: no account with id acc_nope\n');
    expect(await countAccounts()).toBe(before);
  });

  // The rest are the same commands in this process: each is refused as a mistake of the operator's (isUserError:
  // printed as above, not a crash) with its message, and changes nothing.
  it.each([
    ['an unknown command', ['accounts', 'frobnicate'], 'unknown command "accounts frobnicate"'],
    ['an unknown group', ['users', 'create', '--name', 'x'], 'unknown command "users create"'],
    ['a missing --name', ['accounts', 'create'], '--name is required'],
    ['a blank --name', ['accounts', 'create', '--name', '  '], '--name is required'],
    ['a flag without a value', ['accounts', 'create', '--name'], '--name needs a value'],
    // The account-name rule of sign-up (parseAccountName), not a looser one of its own.
    ['an invisible --name', ['accounts', 'create', '--name', '\u200b'], '--name: Enter an account name of 1 to 200 characters.'],
    ['a stray argument', ['accounts', 'create', 'Acme'], 'unexpected argument "Acme"'],
    ['an unknown --plan', ['accounts', 'create', '--name', 'x', '--plan', 'gold'], '--plan must be one of free, starter, pro, business'],
    ['a negative --code-limit', ['accounts', 'create', '--name', 'x', '--code-limit', '-1'], '--code-limit must be a non-negative integer'],
    ['a fractional --code-limit', ['accounts', 'create', '--name', 'x', '--code-limit', '2.5'], '--code-limit must be a non-negative integer'],
    ['an unknown account for keys create', ['keys', 'create', '--account', 'acc_00000000000000000000000000'], 'no account with id acc_00000000000000000000000000'],
    ['an unknown account for set-plan', ['accounts', 'set-plan', '--id', 'acc_nope', '--plan', 'free'], 'no account with id acc_nope'],
    ['an unknown key for revoke', ['keys', 'revoke', '--id', 'key_00000000000000000000000000'], 'no API key with id key_00000000000000000000000000'],
  ])('refuses %s with its message and changes nothing', async (_label, args, message) => {
    const before = await countAccounts();
    await expectRefused(args, message);
    expect(await countAccounts()).toBe(before);
  });

  it('sets a webhook (issuing a whsec_ secret once), shows it without the secret, rotates the secret', async () => {
    const { accountId } = await createTestAccount(database.db, app);
    // A webhook command as a process: the secret is sealed with the key from the process's WEBHOOK_SECRET_KEY.
    const setByProcess = await runCli(['webhook', 'set', '--account', accountId, '--url', 'https://hooks.example.com/qroute'], env);
    expect(setByProcess, setByProcess.stderr).toMatchObject({ code: 0 });
    const set = JSON.parse(setByProcess.stdout);
    expect(set).toMatchObject({ accountId, url: 'https://hooks.example.com/qroute', secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/), enabled: true });
    const moved = await admin(['webhook', 'set', '--account', accountId, '--url', 'https://hooks.example.com/v2']);
    expect(moved).toMatchObject({ url: 'https://hooks.example.com/v2', secret: set.secret });
    const shown = await admin(['webhook', 'show', '--account', accountId]);
    expect(shown).toMatchObject({ url: 'https://hooks.example.com/v2', enabled: true, previousSecretExpiresAt: null });
    expect(shown).not.toHaveProperty('secret');
    const rotated = await admin(['webhook', 'rotate-secret', '--account', accountId]);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(set.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(23 * 3_600_000);
  });

  it.each([
    ['another scheme', 'ftp://hooks.example.com/x', /must use http or https/],
    ['credentials', 'https://user:pass@hooks.example.com/x', /must not carry credentials/],
    ['a relative URL', '/hooks', /must be an absolute http\(s\) URL/],
    // Local development: the refusal names the switch (the server and the CLI both read it).
    ['a loopback address', 'http://127.0.0.1:9/x', /must point to a public address; 127\.0\.0\.1 is not one.*set ALLOW_PRIVATE_WEBHOOK_URLS=true to allow them/],
    ['the cloud metadata address', 'http://169.254.169.254/latest', /must point to a public address/],
  ])('refuses a webhook URL with %s', async (_label, url, message) => {
    const { accountId } = await createTestAccount(database.db, app);
    await expectRefused(['webhook', 'set', '--account', accountId, '--url', url], message, { ...env, ALLOW_PRIVATE_WEBHOOK_URLS: 'false' });
    expect(await database.db.selectFrom('webhook_endpoints').select('url').where('account_id', '=', accountId).executeTakeFirst()).toBeUndefined();
  });

  it('needs WEBHOOK_SECRET_KEY with DATABASE_URL for webhook commands only', async () => {
    const { accountId } = await createTestAccount(database.db, app);
    const withoutKey = { ...env, WEBHOOK_SECRET_KEY: '' };
    // A missing setting is not a mistake in the command: the process's last line of defence prints it and exits 1.
    const result = await runCli(['webhook', 'set', '--account', accountId, '--url', 'https://hooks.example.com/'], withoutKey);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/WEBHOOK_SECRET_KEY is required when DATABASE_URL is set/);
    expect(await admin(['accounts', 'show', '--id', accountId], withoutKey)).toMatchObject({ id: accountId });
  });

  it('lists deliveries, redelivers one from the CLI and sends a test event, each verifiable by the receiver', async () => {
    const receiver = await startWebhookReceiver();
    try {
      const { accountId, client } = await createTestAccount(database.db, app);
      const { secret } = await admin(['webhook', 'set', '--account', accountId, '--url', receiver.url]);
      const { data } = await client.raw.POST('/qrcodes', { body: { name: 'Flyer', url: 'https://example.com/' } });
      await fetch(`${app.origin}/r/${data!.data.slug}`, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' } });

      const pending = await admin(['webhook', 'deliveries', '--account', accountId, '--status', 'pending']);
      expect(pending.data).toHaveLength(1);
      expect(pending.data[0]).toMatchObject({ event: 'scan.created', status: 'pending', attemptCount: 0, qrCodeId: data!.data.id });
      expect(pending.nextCursor).toBeNull();

      const outcome = await admin(['webhook', 'redeliver', '--id', pending.data[0].id]);
      expect(outcome).toMatchObject({ deliveryId: pending.data[0].id, attemptNumber: 1, status: 'succeeded', statusCode: 204 });
      expect(receiver.received).toHaveLength(1);
      expect(verifyServiceSignature(receiver.received[0]!.rawBody, receiver.received[0]!.headers['x-service-signature'], secret)).toBe(true);
      expect(receiver.received[0]!.rawBody.toString()).toBe(pending.data[0].body);

      const detail = await admin(['webhook', 'delivery', '--id', pending.data[0].id]);
      expect(detail).toMatchObject({ status: 'succeeded', attemptCount: 1 });
      expect(detail.attempts).toEqual([
        { attemptNumber: 1, startedAt: expect.stringMatching(ISO_UTC), url: receiver.url, statusCode: 204, latencyMs: expect.any(Number), error: null, responseBody: '' },
      ]);
      expect((await admin(['webhook', 'deliveries', '--account', accountId, '--status', 'failed'])).data).toEqual([]);

      receiver.respondWith(() => ({ status: 500, body: 'not today' }));
      // A failed test prints its outcome like a successful one, and exits 1 so scripts and deploy checks notice: a
      // real process, since that split is main.ts's.
      const result = await runCli(['webhook', 'test', '--account', accountId], env);
      expect(result.code, result.stderr).toBe(1);
      expect(result.stderr).toMatch(/\nerror: the webhook was not delivered \(HTTP 500\); the delivery is failed\n$/);
      const test = JSON.parse(result.stdout);
      expect(test).toMatchObject({ attemptNumber: 1, status: 'failed', statusCode: 500, error: 'HTTP 500' });
      const sent = receiver.received[1]!;
      expect(sent.headers['x-service-event']).toBe('webhook.test');
      expect(JSON.parse(sent.rawBody.toString())).toEqual({ event: 'webhook.test', id: test.deliveryId, createdAt: expect.stringMatching(ISO_UTC) });
      expect(verifyServiceSignature(sent.rawBody, sent.headers['x-service-signature'], secret)).toBe(true);
      const failed = await admin(['webhook', 'deliveries', '--account', accountId, '--status', 'failed']);
      expect(failed.data.map((d: { id: string }) => d.id)).toEqual([test.deliveryId]);
    } finally {
      await receiver.close();
    }
  });

  it('webhook test exits 1 when the receiver is down, after printing what happened', async () => {
    const { accountId } = await createTestAccount(database.db, app);
    const closedPort = await freePort(); // nothing listens there: the connection is refused
    await admin(['webhook', 'set', '--account', accountId, '--url', `http://127.0.0.1:${closedPort}/hooks`]);
    const { outcome, message } = await failedAttempt(['webhook', 'test', '--account', accountId]);
    expect(outcome).toMatchObject({ attemptNumber: 1, status: 'failed', error: expect.stringContaining('ECONNREFUSED') });
    expect(outcome).not.toHaveProperty('statusCode');
    expect(message).toMatch(/^the webhook was not delivered \(.*ECONNREFUSED.*\); the delivery is failed$/);
  });

  it('webhook redeliver exits 1 when the receiver answers non-2xx, and the delivery stays pending for its retries', async () => {
    const receiver = await startWebhookReceiver();
    try {
      receiver.respondWith(() => ({ status: 503 }));
      const { accountId, client } = await createTestAccount(database.db, app);
      await admin(['webhook', 'set', '--account', accountId, '--url', receiver.url]);
      const { data } = await client.raw.POST('/qrcodes', { body: { name: 'Flyer', url: 'https://example.com/' } });
      await fetch(`${app.origin}/r/${data!.data.slug}`, { redirect: 'manual', headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Chrome/126.0 Mobile' } });
      const pending = await admin(['webhook', 'deliveries', '--account', accountId, '--status', 'pending']);

      const { outcome, message } = await failedAttempt(['webhook', 'redeliver', '--id', pending.data[0].id]);
      expect(outcome).toMatchObject({ deliveryId: pending.data[0].id, status: 'pending', statusCode: 503 });
      expect(message).toBe('the webhook was not delivered (HTTP 503); the delivery stays pending and is retried on its schedule');
      expect((await admin(['webhook', 'delivery', '--id', pending.data[0].id])).status).toBe('pending');
    } finally {
      await receiver.close();
    }
  });

  it.each([
    ['an unknown delivery', ['webhook', 'redeliver', '--id', 'whd_00000000000000000000000000'], /^no webhook delivery with id whd_00000000000000000000000000$/],
    ['an account without a webhook', ['webhook', 'show', '--account', 'ACCOUNT'], /has no webhook; set one with: webhook set/],
    ['a bad --status', ['webhook', 'deliveries', '--account', 'ACCOUNT', '--status', 'lost'], /--status must be one of pending, succeeded, failed/],
    ['an unknown webhook command', ['webhook', 'frobnicate'], /unknown command "webhook frobnicate"/],
  ])('webhook commands refuse %s with its message', async (_label, args, message) => {
    const { accountId } = await createTestAccount(database.db, app);
    await expectRefused(args.map((a) => (a === 'ACCOUNT' ? accountId : a)), message);
  });

  it('maintenance prune deletes finished deliveries past their retention now and prints the counts', async () => {
    const { accountId } = await createTestAccount(database.db, app);
    await sql`insert into webhook_deliveries (id, account_id, event, body, status, completed_at) values
      ('whd_cli_prune_old', ${accountId}, 'qrcode.scanned', '{}', 'succeeded', now() - interval '31 days'),
      ('whd_cli_prune_new', ${accountId}, 'qrcode.scanned', '{}', 'succeeded', now() - interval '29 days')`.execute(database.db);
    const result = await runCliJson(['maintenance', 'prune'], env);
    expect(result.deleted).toMatchObject({ webhookDeliveries: 1, webhookAttempts: 0, scans: 0 });
    const left = await database.db.selectFrom('webhook_deliveries').select('id').where('id', 'like', 'whd_cli_prune_%').execute();
    expect(left).toEqual([{ id: 'whd_cli_prune_new' }]);
  });

  it.concurrent.each([
    [['--help'], 0],
    [[], 2],
  ])('prints usage for %j and exits %i', async (args, code) => {
    const result = await runCli(args, env);
    expect(result.code).toBe(code);
    expect(result.stdout).toMatch(/^Usage: /);
    expect(result.stdout).toContain('keys create --account <accountId>');
  });

  it("prints what the README's quick start shows for each admin command: the same fields, in order, and id prefixes", async () => {
    const readme = await fs.readFile(path.join(PROJECT_ROOT, 'README.md'), 'utf8');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1));
    const examples = [...quickStart.matchAll(/^npm run --silent admin -- (.+)\n# (\{.*\})$/gm)].map(([, command, shown]) => ({ command: command!, shown: shown! }));
    expect(examples.map((each) => each.command.split(' ').slice(0, 2).join(' '))).toEqual(['accounts create', 'keys create', 'users invite', 'webhook set', 'webhook test']);
    const receiver = await startWebhookReceiver();
    try {
      let accountId = '';
      for (const { command, shown } of examples) {
        // The README's placeholders become this run's account, and the webhook a receiver on loopback.
        const args = [...command.matchAll(/"([^"]*)"|(\S+)/g)]
          .map(([, quoted, bare]) => quoted ?? bare!)
          .map((arg) => (/^acc_\w*…$/.test(arg) ? accountId : arg.startsWith('https://hooks.example.com/') ? receiver.url : arg));
        // In this process: main.ts prints runCommand's answer as JSON.stringify does, fields in the same order.
        const printed = await admin(args);
        if (args[0] === 'accounts') accountId = printed.id;
        const fields = [...shown.matchAll(/"(\w+)": ("[^"]*"|[^,}]+)/g)].map(([, name, value]) => ({ name: name!, value: value! }));
        expect(Object.keys(printed).filter((name) => fields.some((field) => field.name === name)), command).toEqual(fields.map((field) => field.name));
        for (const { name, value } of fields) {
          const prefix = /^"([a-z]+_)[^"]*…"$/.exec(value)?.[1];
          if (prefix) expect(printed[name], `${command}: ${name}`).toMatch(new RegExp(`^${prefix}`));
        }
      }
    } finally {
      await receiver.close();
    }
  });
});


async function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitFor(condition: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await condition()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return condition();
}

interface ServerProcess {
  child: ChildProcess;
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built `src/main.ts` and resolves once it logs that it is listening (rejects if it exits first). */
async function startServer(env: NodeJS.ProcessEnv): Promise<ServerProcess> {
  const child = spawn(process.execPath, [builtEntry('src/main.ts')], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  const listening = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.includes('qroute is listening')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('error', reject);
    void exited.then(({ code, signal }) => reject(new Error(`server exited (${code ?? signal}) before listening:\n${output}`)));
    setTimeout(() => reject(new Error(`server not listening after 45 s:\n${output}`)), 45_000).unref();
  });
  await listening;
  return { child, output: () => output, exited };
}

describe('admin CLI and server with the embedded database in DATA_DIR', TIMEOUT, () => {
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let server: ServerProcess | undefined;
  let port: number;
  let accountId: string;
  let key: string;
  const postmasterPid = () => path.join(dataDir, 'pg', 'postmaster.pid');

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-cli-test-'));
    env = { ...process.env, DATA_DIR: dataDir };
    delete env.DATABASE_URL;
    delete env.SITE_URL; // the operator's shell: the server's SITE_URL is not in it
  });

  afterAll(async () => {
    // Only after a failure is anything left: first the server (which stops its database), then the database.
    if (server && server.child.exitCode === null && server.child.signalCode === null) {
      server.child.kill('SIGTERM');
      const stopped = await Promise.race([server.exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 15_000))]);
      if (!stopped) {
        server.child.kill('SIGKILL');
        await server.exited;
      }
    }
    if (dataDir && existsSync(postmasterPid())) {
      const pid = Number((await fs.readFile(postmasterPid(), 'utf8')).split('\n')[0]);
      if (Number.isInteger(pid) && pid > 0) {
        try {
          process.kill(pid, 'SIGINT'); // PostgreSQL's fast shutdown
        } catch {
          // already gone
        }
        await waitFor(() => !existsSync(postmasterPid()), 30_000);
      }
    }
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('refuses to create a database in a DATA_DIR without one unless given --init, and says where it looked', async () => {
    const result = await runCli(['accounts', 'create', '--name', 'Embedded'], env);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`qroute admin: there is no embedded PostgreSQL in ${dataDir}`);
    expect(result.stderr).toContain('run again with --init');
    expect(await fs.readdir(dataDir)).toEqual([]);
  });

  it('creates an account with --init, starting the embedded PostgreSQL itself and stopping it afterwards', async () => {
    const result = await runCli(['--init', 'accounts', 'create', '--name', 'Embedded'], env);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    const account = JSON.parse(result.stdout);
    expect(account).toMatchObject({ id: expect.stringMatching(/^acc_/), name: 'Embedded', plan: 'business', codeLimit: 1000 });
    accountId = account.id;

    const info = JSON.parse(await fs.readFile(path.join(dataDir, 'postgres.json'), 'utf8'));
    expect(info).toEqual({ port: expect.any(Number), user: 'qroute', password: expect.any(String), adminUser: 'qroute_admin', adminPassword: expect.any(String) });
    expect(result.stderr).toBe(`qroute admin: using embedded PostgreSQL in ${dataDir} (port ${info.port})\n`);
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    expect(existsSync(postmasterPid())).toBe(false);
    expect(await acceptsConnections(info.port)).toBe(false);
  });

  it('keeps the server running when the CLI uses the database the server started, and prints links at its SITE_URL', async () => {
    expect(accountId).toBeDefined();
    port = await freePort();
    const siteUrl = `http://127.0.0.1:${port}`;
    server = await startServer({ ...env, PORT: String(port), SITE_URL: siteUrl, LOG_LEVEL: 'info' });
    expect(existsSync(postmasterPid())).toBe(true);

    // Without SITE_URL of its own, the CLI's invitation link is the server's (recorded at its start), and opens there.
    const invited = await runCliJson(['users', 'invite', '--account', accountId, '--email', 'ada@example.com'], env);
    expect(invited.url).toMatch(new RegExp(`^${siteUrl}/invitations/[\\w-]{43}$`));
    const invitation = await fetch(invited.url);
    expect(invitation.status).toBe(200);
    expect(await invitation.text()).toContain('ada@example.com');

    const created = await runCli(['keys', 'create', '--account', accountId], env);
    expect(created, created.stderr).toMatchObject({ code: 0 });
    key = JSON.parse(created.stdout).key;
    expect(key).toMatch(/^qrk_/);

    expect(existsSync(postmasterPid())).toBe(true);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  });

  it('accepts the key made by the CLI on the server', async () => {
    expect(key).toBeDefined();
    const origin = `http://127.0.0.1:${port}`;
    const target = { apiUrl: `${origin}/api/v1` };
    const created = await rawRequest(target, '/qrcodes', {
      method: 'POST',
      apiKey: key,
      body: JSON.stringify({ name: 'Embedded poster', url: 'https://example.com/embedded' }),
    });
    expect(created.status).toBe(201);
    const listed = await rawRequest(target, '/qrcodes', { apiKey: key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((code: { id: string }) => code.id)).toEqual([created.body.data.id]);
  });

  it('exits 0 on SIGTERM within 15 s and stops the embedded database', async () => {
    expect(server).toBeDefined();
    const started = Date.now();
    server!.child.kill('SIGTERM');
    const exit = await Promise.race([
      server!.exited,
      new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 15_000)),
    ]);
    expect(exit, server!.output()).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(existsSync(postmasterPid())).toBe(false);
    expect(server!.output()).toContain('"msg":"stopped"');
  });
});

describe('standalone worker with the embedded database', TIMEOUT, () => {
  it('exits non-zero with a message instead of creating a database in a DATA_DIR without one', async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-worker-test-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY.toString('base64') };
      delete env.DATABASE_URL;
      const result = await execFile(process.execPath, [builtEntry('src/worker.ts')], { cwd: PROJECT_ROOT, env, timeout: 50_000 })
        .then(() => ({ code: 0, stderr: '' }), (error: { code?: number; stderr?: string }) => ({ code: error.code, stderr: error.stderr ?? '' }));
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(new RegExp(`^qroute worker: there is no embedded PostgreSQL in ${dataDir}.*\\n$`));
      expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});
