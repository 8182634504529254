import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import type { PlanName } from '../../src/accounts/plans.js';
import type { Actor } from '../../src/codes/index.js';
import { createTypedCode } from '../../src/codes/typed-code.js';
import type { CodeTypeName } from '../../src/codes/types/index.js';
import type { Database, Db } from '../../src/db/schema/index.js';
import type { UserRole } from '../../src/db/schema/people.js';
import { createInvitation } from '../../src/people/invitations.js';
import { parseRouting, type Routing } from '../../src/routing/index.js';
import { newId } from '../../src/ids.js';
import { createClient, type CreateQrCodeInput, type QrCode } from '../../sdk/src/index.js';
import { storedExample } from './code-type-examples.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson } from './dashboard.js';
import type { TestAccount, TestApp } from './test-app.js';

/*
 * Rows a test needs before it starts, made through the services production uses (so they are valid the way real
 * ones are). Accounts with a key: createTestAccount (test-app.ts); people who can sign in: createPerson
 * (dashboard.ts); both re-exported here so a test file imports its factories from one place.
 */
export { createTestAccount, type TestAccount } from './test-app.js';
export { createPerson, type TestPerson } from './dashboard.js';

/** An account without keys or people, for tests of what an account holds. */
export async function createBareAccount(db: Db, options: { name?: string; plan?: PlanName; codeLimit?: number | null } = {}) {
  return createAccount(db, { name: options.name ?? 'Test account', plan: options.plan ?? 'business', codeLimit: options.codeLimit });
}

/**
 * An account with one URL code, inserted as plain rows: for tests that migrate a database to an earlier version
 * first (the services write today's schema), so only columns every version has are set.
 */
export async function insertBareCode(db: Db): Promise<{ accountId: string; codeId: string }> {
  const accountId = newId('acc');
  const codeId = newId('qr');
  await sql`insert into accounts (id, name, plan) values (${accountId}, 'Acme', 'business')`.execute(db);
  await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
    values (${codeId}, ${accountId}, 'Poster', ${codeId.slice(-8)}, 'https://example.com/', now(), now())`.execute(db);
  return { accountId, codeId };
}

/** Another API key of `accountId`, with an SDK client for it against `app`. */
export async function createTestApiKey(
  db: Database,
  app: Pick<TestApp, 'apiUrl'>,
  accountId: string,
  options: { name?: string | null; createdByUserId?: string } = {},
): Promise<TestAccount> {
  const key = await createApiKey(db, accountId, options);
  return { accountId, keyId: key.id, apiKey: key.key, client: createClient({ baseUrl: app.apiUrl, apiKey: key.key }) };
}

/** The body of a plain URL code; `overrides` changes what a test is about. */
export function codeBody(overrides: Partial<CreateQrCodeInput> = {}): CreateQrCodeInput {
  return { name: 'Poster', url: 'https://example.com/', ...overrides } as CreateQrCodeInput;
}

/** A code made through the API as `account` (POST /qrcodes), failing the test with the error body if refused. */
export async function createTestCode(account: Pick<TestAccount, 'client'>, overrides: Partial<CreateQrCodeInput> = {}): Promise<QrCode> {
  const { data, error } = await account.client.raw.POST('/qrcodes', { body: codeBody(overrides) });
  expect(error, JSON.stringify(error)).toBeUndefined();
  return data!.data;
}

/** Who makes a typed code: a person (createPerson) or an API key (createTestAccount). */
export type CodeMaker = { accountId: string } & ({ userId: string } | { keyId: string });

/**
 * A code of any type, made as the dashboard and the import make them (createTypedCode). Its content is the type's
 * stored example (code-type-examples.ts, with real files of the account) unless given; problems fail the test.
 */
export async function createTestTypedCode(
  db: Db,
  maker: CodeMaker,
  input: { type: CodeTypeName; content?: unknown; name?: string; siteUrl?: string; designTemplateId?: string; externalId?: string },
) {
  const actor: Actor = 'userId' in maker ? { kind: 'user', userId: maker.userId } : { kind: 'api_key', apiKeyId: maker.keyId };
  const result = await createTypedCode(db, {
    accountId: maker.accountId,
    name: input.name ?? `A ${input.type} code`,
    type: input.type,
    content: input.content ?? (await storedExample(db, maker.accountId, input.type)),
    actor,
    // startTestApp's site URL; a dashboard app's is its origin, so dashboard tests pass app.config.siteUrl.
    siteUrl: input.siteUrl ?? 'https://qr.test',
    designTemplateId: input.designTemplateId,
    externalId: input.externalId,
  });
  if (!result.ok) throw new Error(`createTypedCode refused the ${input.type} code: ${JSON.stringify(result.problems)}`);
  return result.code;
}

/** An invitation into `accountId` (as a member unless `role`), with the link the mail would carry. */
export async function createTestInvitation(
  db: Db,
  input: { accountId: string; email?: string; role?: UserRole; invitedByUserId?: string; siteUrl: string; now?: Date },
) {
  return createInvitation(db, {
    ...input,
    email: input.email ?? `invitee-${randomBytes(5).toString('hex')}@example.com`,
    role: input.role ?? 'member',
  });
}

/** A person (createPerson's options) signed in to the dashboard over HTTP (dashboardHttp), with their session. */
export async function createSignedInPerson(
  db: Database,
  app: Pick<TestApp, 'origin'>,
  options: Parameters<typeof createPerson>[1] = {},
): Promise<TestPerson & { http: DashboardHttp }> {
  const person = await createPerson(db, options);
  return { ...person, http: await dashboardHttp(app, person) };
}

/**
 * Gives a code routing and a schedule (issue 28) by updating its row, as the API stores them: the routing as
 * parseRouting normalised it (rule ids assigned, returned for the test to expect in scans), the schedule as given.
 * The row's change trigger announces the code, so every instance's cache reads it again before the next scan.
 */
export async function setTestRouting(
  db: Db,
  codeId: string,
  options: { routing?: unknown; activeFrom?: Date | null; expiresAt?: Date | null; scanLimit?: number | null; expiredUrl?: string | null },
): Promise<Routing | null> {
  let routing: Routing | null = null;
  if (options.routing !== undefined && options.routing !== null) {
    const parsed = parseRouting(options.routing, null, () => newId('rul'));
    expect(parsed.ok ? [] : parsed.problems).toEqual([]);
    routing = (parsed as Extract<typeof parsed, { ok: true }>).routing;
  }
  await db
    .updateTable('qr_codes')
    .set({
      ...(options.routing !== undefined && { routing: routing === null ? null : JSON.stringify(routing) }),
      ...(options.activeFrom !== undefined && { active_from: options.activeFrom }),
      ...(options.expiresAt !== undefined && { expires_at: options.expiresAt }),
      ...(options.scanLimit !== undefined && { scan_limit: options.scanLimit }),
      ...(options.expiredUrl !== undefined && { expired_url: options.expiredUrl }),
    })
    .where('id', '=', codeId)
    .executeTakeFirstOrThrow();
  return routing;
}
