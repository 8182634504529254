import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { sql } from 'kysely';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eraseAccount, sweepErasedCodes } from '../../src/accounts/account-erasure.js';
import { exportAccount } from '../../src/accounts/account-export.js';
import { foldScans } from '../../src/analytics/scan-rollup.js';
import { isUserError, runCommand } from '../../src/cli/commands.js';
import { loadConfig } from '../../src/config.js';
import { PROJECT_ROOT } from '../../src/paths.js';
import type { Database } from '../../src/db/schema/index.js';
import { createDesignTemplate } from '../../src/designs/design-templates.js';
import { checkImport } from '../../src/imports/check-import.js';
import { emailKey } from '../../src/people/login-limit.js';
import { DEFAULT_DESIGN } from '../../src/qr/design/design.js';
import { setWebhook } from '../../src/webhooks/webhook-settings.js';
import { loadSecretBox } from '../../src/webhooks/secret-box.js';
import { waitsForLock } from '../support/database.js';
import { useDashboardApp } from '../support/dashboard.js';
import {
  createBareAccount,
  createPerson,
  createSignedInPerson,
  createTestApiKey,
  createTestCode,
  createTestInvitation,
  createTestTypedCode,
  type TestAccount,
} from '../support/factories.js';
import { builtEntry } from '../support/processes.js';
import { scan } from '../support/scan.js';
import { CHANGE_NOTICE_TIMEOUT_MS, rawRequest, type StartedTestApp, type TestApp } from '../support/test-app.js';

let db: Database;
let app: TestApp;
let startAnother: StartedTestApp['startAnother'];
let connectionString: string;
useDashboardApp((started) => {
  db = started.database.db;
  connectionString = started.database.connectionString;
  app = started.app;
  startAnother = started.startAnother;
});

/** An account holding one of everything: people, an invitation, a key, a webhook with deliveries, codes with scans and files, a template, an import. */
interface FullAccount {
  name: string;
  owner: Awaited<ReturnType<typeof createSignedInPerson>>;
  member: Awaited<ReturnType<typeof createPerson>>;
  key: TestAccount;
  webhookSecret: string;
  slugs: string[];
  scans: number;
  fileBytes: Map<string, Buffer>;
}

async function fullAccount(name: string): Promise<FullAccount> {
  const owner = await createSignedInPerson(db, app, { accountName: name });
  const { accountId } = owner;
  const member = await createPerson(db, { accountId, role: 'member' });
  await createTestInvitation(db, { accountId, invitedByUserId: owner.userId, siteUrl: app.config.siteUrl });
  const key = await createTestApiKey(db, app, accountId, { name: 'Shop backend', createdByUserId: owner.userId });
  // A closed port: deliveries are made (and fail), which is all the export and erasure need of them.
  const webhook = await setWebhook(db, app.box, { accountId, url: 'http://127.0.0.1:9/hooks', allowPrivate: true });
  const template = await createDesignTemplate(db, { accountId, name: 'Brand', design: { ...DEFAULT_DESIGN, foreground: { type: 'solid', color: '#112233' } } });
  const urlCode = await createTestCode(key, { name: 'Poster' });
  const pdfCode = await createTestTypedCode(db, { accountId, userId: owner.userId }, { type: 'PDF', siteUrl: app.config.siteUrl, designTemplateId: template.id });
  const imported = await checkImport(db, { accountId, userId: owner.userId, fileName: 'codes.csv', bytes: Buffer.from('type,name,url\r\nURL,Flyer,https://example.com/flyer\r\n') });
  if (!imported.ok) throw new Error(imported.message);
  const slugs = [urlCode.slug, pdfCode.slug];
  for (const slug of [...slugs, urlCode.slug]) expect(await scan(app, slug)).toBeLessThan(400);
  await until(async () => (await scansOf(accountId)) === 3);
  const files = await db.selectFrom('files').select('id').where('account_id', '=', accountId).execute();
  const fileBytes = new Map<string, Buffer>();
  for (const file of files) {
    const chunks = await db.selectFrom('file_chunks').select('data').where('file_id', '=', file.id).orderBy('index').execute();
    fileBytes.set(file.id, Buffer.concat(chunks.map((chunk) => chunk.data)));
  }
  return { name, owner, member, key, webhookSecret: webhook.secret!, slugs, scans: 3, fileBytes };
}

/** Waits for a condition (expect.poll, outside a test: the accounts are made in beforeAll). */
async function until(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function scansOf(accountId: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from scans where qr_code_id in (select id from qr_codes where account_id = ${accountId})`.execute(db);
  return rows[0]!.n;
}

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStreamPromise(entry).then(async (stream) => {
        const chunks: Buffer[] = [];
        for await (const chunk of stream) chunks.push(chunk as Buffer);
        entries.set(entry.fileName, Buffer.concat(chunks));
        zip.readEntry();
      }, reject);
    });
    zip.readEntry();
  });
  return entries;
}

function ndjson(entries: Map<string, Buffer>, name: string): Record<string, unknown>[] {
  const text = entries.get(name)?.toString('utf8');
  expect(text, name).toBeDefined();
  return text!.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * Rows that name the account, per table: every table with an account_id, qr_code_id, user_id, file_id,
 * delivery_id or import_id column (found in information_schema, so tables added later are counted too), matched
 * against the account's own ids as they were before the erasure.
 */
async function rowsOfAccount(ids: { accountId: string; codes: string[]; users: string[]; files: string[]; deliveries: string[]; imports: string[] }) {
  const { rows: columns } = await sql<{ table_name: string; column_name: string }>`
    select c.table_name, c.column_name from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name and t.table_type = 'BASE TABLE'
    where c.table_schema = current_schema()
      -- The erased codes' ids alone, kept for the sweep of late scans (and forgotten after it): what it is for.
      and c.table_name <> 'erased_codes'
      and c.column_name in ('account_id', 'qr_code_id', 'user_id', 'file_id', 'delivery_id', 'import_id', 'created_by_user_id', 'invited_by_user_id', 'brand_logo_file_id')
    order by 1, 2`.execute(db);
  const idsOf: Record<string, string[]> = {
    account_id: [ids.accountId],
    qr_code_id: ids.codes,
    user_id: ids.users,
    created_by_user_id: ids.users,
    invited_by_user_id: ids.users,
    file_id: ids.files,
    brand_logo_file_id: ids.files,
    delivery_id: ids.deliveries,
    import_id: ids.imports,
  };
  const counts: Record<string, number> = {};
  for (const { table_name: table, column_name: column } of columns) {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)} where ${sql.ref(column)} = any(${idsOf[column]!}::text[])`.execute(db);
    counts[`${table}.${column}`] = rows[0]!.n;
  }
  const account = await db.selectFrom('accounts').select('id').where('id', '=', ids.accountId).execute();
  counts['accounts.id'] = account.length;
  return counts;
}

async function idsOf(accountId: string) {
  const ids = async (query: Promise<{ id: string }[]>) => (await query).map((row) => row.id);
  return {
    accountId,
    codes: await ids(db.selectFrom('qr_codes').select('id').where('account_id', '=', accountId).execute()),
    users: await ids(db.selectFrom('users').select('id').where('account_id', '=', accountId).execute()),
    files: await ids(db.selectFrom('files').select('id').where('account_id', '=', accountId).execute()),
    deliveries: await ids(db.selectFrom('webhook_deliveries').select('id').where('account_id', '=', accountId).execute()),
    imports: await ids(db.selectFrom('imports').select('id').where('account_id', '=', accountId).execute()),
  };
}

describe("the owner's data rights", () => {
  let shop: FullAccount;
  let bystander: FullAccount;
  let tmp: string;

  beforeAll(async () => {
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-account-data-'));
    [shop, bystander] = [await fullAccount('Corner Shop'), await fullAccount('Bystander')];
  });
  afterAll(async () => {
    if (tmp) await fs.rm(tmp, { recursive: true, force: true });
  });

  it('downloads all of the account as one ZIP: every kind of data, no password hash, key hash or secret', async () => {
    const response = await shop.owner.http.get('/account/data.zip');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="qroute-account-\d{4}-\d{2}-\d{2}\.zip"$/);
    const bytes = Buffer.from(await response.arrayBuffer());
    const entries = await unzip(bytes);

    const account = JSON.parse(entries.get('account.json')!.toString()) as Record<string, unknown>;
    expect(account).toMatchObject({ id: shop.owner.accountId, name: 'Corner Shop' });
    const people = ndjson(entries, 'people.ndjson');
    expect(people.map((person) => person.email).sort()).toEqual([shop.owner.email, shop.member.email].sort());
    expect(people.every((person) => !('password_hash' in person))).toBe(true);
    expect(ndjson(entries, 'invitations.ndjson')).toHaveLength(1);
    expect(ndjson(entries, 'api-keys.ndjson')).toEqual([expect.objectContaining({ id: shop.key.keyId, name: 'Shop backend', prefix: expect.any(String) })]);
    const codes = ndjson(entries, 'codes.ndjson');
    expect(codes.map((code) => code.slug).sort()).toEqual(expect.arrayContaining(shop.slugs));
    const pdf = codes.find((code) => code.type === 'PDF')!;
    expect(pdf.content).toEqual(expect.objectContaining({ fileId: expect.any(String) }));
    expect(pdf.design_template_id).toEqual(expect.any(String));
    expect(pdf.short_url).toBe(`${app.config.siteUrl}/r/${pdf.slug}`);
    expect(ndjson(entries, 'destination-changes.ndjson').length).toBeGreaterThanOrEqual(2);
    expect(ndjson(entries, 'design-templates.ndjson')).toEqual([expect.objectContaining({ name: 'Brand' })]);
    expect(ndjson(entries, 'imports.ndjson')).toHaveLength(1);
    expect(ndjson(entries, 'import-rows.ndjson')).toEqual([expect.objectContaining({ line: 2 })]);

    // Every column of the scans view, read from the database rather than listed, so columns added later come along.
    const scans = ndjson(entries, 'scans-0001.ndjson');
    expect(scans).toHaveLength(shop.scans);
    const { rows: viewColumns } = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_schema = current_schema() and table_name = 'scans'`.execute(db);
    for (const row of scans) expect(Object.keys(row).sort()).toEqual(viewColumns.map((column) => column.column_name).sort());

    const files = ndjson(entries, 'files.ndjson');
    expect(files.length).toBe(shop.fileBytes.size);
    for (const file of files) {
      const stored = [...entries].find(([name]) => name.startsWith(`files/${file.id}/`));
      expect(stored?.[0]).toBe(`files/${file.id}/${file.original_name}`);
      expect(createHash('sha256').update(stored![1]).digest('hex')).toBe(file.sha256);
      expect(stored![1].equals(shop.fileBytes.get(file.id as string)!)).toBe(true);
    }

    const webhook = JSON.parse(entries.get('webhook.json')!.toString()) as Record<string, unknown>;
    expect(webhook.url).toBe('http://127.0.0.1:9/hooks');
    expect(Object.keys(webhook).some((column) => column.includes('secret'))).toBe(false);
    expect(ndjson(entries, 'webhook-deliveries.ndjson').length).toBe(shop.scans);
    expect(entries.has('webhook-attempts.ndjson')).toBe(true);
    expect(entries.get('README.txt')!.toString()).toContain('one JSON object per line');

    // Nothing secret anywhere in the ZIP, whatever entry it might have slipped into.
    const everything = Buffer.concat([...entries.values()]).toString('latin1');
    const [user] = await db.selectFrom('users').select('password_hash').where('id', '=', shop.owner.userId).execute();
    const [key] = await db.selectFrom('api_keys').select('key_hash').where('id', '=', shop.key.keyId).execute();
    for (const secret of [user!.password_hash, '$argon2', shop.key.apiKey, key!.key_hash.toString('hex'), key!.key_hash.toString('base64'), shop.webhookSecret]) {
      expect(everything.includes(secret), secret).toBe(false);
    }
    expect(everything).not.toContain('password_hash');
    expect(everything).not.toContain('key_hash');
    expect(everything).not.toContain('token_hash');
    // And nothing of the other account.
    expect(everything).not.toContain(bystander.owner.accountId);
  });

  it('reads every table in pages, so memory stays flat however large the account', async () => {
    const pages: Array<[string, number]> = [];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const summary = await exportAccount(db, shop.owner.accountId, out, { pageSize: 2, onPage: (entry, rows) => pages.push([entry, rows]) });
    expect(pages.every(([, rows]) => rows <= 2 || pages.length === 0)).toBe(true);
    // Three scans of two codes, two people, and each read more than once: the pages really are pages.
    expect(pages.filter(([entry]) => entry === 'people.ndjson').length).toBeGreaterThanOrEqual(2);
    const entries = await unzip(Buffer.concat(chunks));
    expect(ndjson(entries, 'scans-0001.ndjson')).toHaveLength(shop.scans);
    expect(summary.entries['scans-0001.ndjson']).toBe(shop.scans);
    expect(ndjson(entries, 'people.ndjson')).toHaveLength(2);
  });

  it('pages scans by scans, not by groups of up to 500, and splits them into parts', async () => {
    const account = await createBareAccount(db, { name: 'Packed scans' });
    await db.insertInto('qr_codes').values({ id: 'qr_packed_export', account_id: account.id, name: 'Packed', slug: 'packed-export', destination_url: 'https://example.com/', created_at: new Date(), updated_at: new Date() }).execute();
    // One batch's five scans of one second: one group.
    const second = Date.parse('2026-11-26T10:00:00Z');
    const times = [0, 100, 200, 300, 400].map((ms) => new Date(second + ms));
    await db.insertInto('scan_groups').values({ qr_code_id: 'qr_packed_export', device: 'mobile', os: 'iOS', browser: 'Safari', destination_url: null, referrer_host: null, first_at: times[0]!, times }).execute();
    const pages: Array<[string, number]> = [];
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (chunk: Buffer) => chunks.push(chunk));
    const summary = await exportAccount(db, account.id, out, { pageSize: 2, scansPerPart: 2, onPage: (entry, rows) => pages.push([entry, rows]) });
    expect(pages.filter(([entry]) => entry === 'scans').map(([, rows]) => rows)).toEqual([1, 2, 2, 1]);
    const entries = await unzip(Buffer.concat(chunks));
    const parts = ['scans-0001.ndjson', 'scans-0002.ndjson', 'scans-0003.ndjson'];
    expect(Object.keys(summary.entries).filter((name) => name.startsWith('scans'))).toEqual(parts);
    expect(parts.flatMap((part) => ndjson(entries, part)).map((scan) => new Date(scan.created_at as string).getTime())).toEqual(times.map((time) => time.getTime()));
    await eraseAccount(db, account.id);
  });

  it('lets only owners download or delete', async () => {
    const member = await createSignedInPerson(db, app, { accountId: bystander.owner.accountId, role: 'member' });
    const ownersPage = await (await bystander.owner.http.get('/account')).text();
    expect(ownersPage).toContain('href="/account/data.zip"');
    expect(ownersPage).toContain('href="/account/delete"');
    const membersPage = await (await member.http.get('/account')).text();
    expect(membersPage).not.toContain('/account/data.zip');
    expect(membersPage).not.toContain('/account/delete');
    expect((await member.http.get('/account/data.zip')).status).toBe(403);
    expect((await member.http.get('/account/delete')).status).toBe(403);
    await member.http.get('/account');
    expect((await member.http.post('/account/delete', { accountName: 'Bystander' })).status).toBe(403);
    expect(await db.selectFrom('accounts').select('id').where('id', '=', bystander.owner.accountId).executeTakeFirst()).toBeDefined();
  });

  it('exports from the CLI into a new file, and refuses to overwrite one or to export an unknown account', async () => {
    const config = loadConfig({});
    const admin = (args: string[]) => runCommand({ db, config: { ...config, siteUrl: app.config.siteUrl }, secretBox: () => loadSecretBox(config) }, args);
    const out = path.join(tmp, 'shop.zip');
    const result = (await admin(['accounts', 'export', '--account', shop.owner.accountId, '--out', out])) as { bytes: number; entries: Record<string, number> };
    expect(result.entries['scans-0001.ndjson']).toBe(shop.scans);
    expect((await fs.stat(out)).size).toBe(result.bytes);
    expect(ndjson(await unzip(await fs.readFile(out)), 'codes.ndjson').length).toBeGreaterThanOrEqual(2);

    const again = await admin(['accounts', 'export', '--account', shop.owner.accountId, '--out', out]).catch((error: unknown) => error);
    expect(isUserError(again)).toBe(true);
    expect((again as Error).message).toMatch(/exists/);
    const unknown = await admin(['accounts', 'export', '--account', 'acc_nope', '--out', path.join(tmp, 'nope.zip')]).catch((error: unknown) => error);
    expect(isUserError(unknown)).toBe(true);
    // Only the finished ZIP: no half file, no temporary one left beside it.
    expect(await fs.readdir(tmp)).toEqual(['shop.zip']);
  });

  it('removes its hidden partial file when the CLI export is stopped by Ctrl-C', async () => {
    const dir = await fs.mkdtemp(path.join(tmp, 'stopped-'));
    const account = await createBareAccount(db, { name: 'Stopped export' });
    // Holds the export at its read of the webhook, its partial file half written.
    const endLock = await held((trx) => sql`lock table webhook_endpoints in access exclusive mode`.execute(trx));
    const child = spawn(process.execPath, [builtEntry('src/cli/main.ts'), 'accounts', 'export', '--account', account.id, '--out', path.join(dir, 'out.zip')], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DATABASE_URL: connectionString },
      stdio: 'ignore',
    });
    const exited = new Promise<string | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
    try {
      await expect.poll(() => waitingForLock('select "url"'), { timeout: 20_000 }).toBe(true);
      expect(await fs.readdir(dir)).toEqual([expect.stringMatching(/^\.out\.zip\.[0-9a-f]{12}\.partial$/)]);
      child.kill('SIGINT');
      // Ended by the signal itself, as an export without the cleanup would have been (a shell shows 130).
      expect(await exited).toBe('SIGINT');
      expect(await fs.readdir(dir)).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await endLock();
    }
  });

  it('refuses to delete when the typed name differs, and erases everything when it matches', async () => {
    const before = await idsOf(shop.owner.accountId);
    // The rollups hold the account's scans too (folded here rather than waiting for the job's next round).
    await expect
      .poll(async () => {
        await foldScans(db);
        return (await db.selectFrom('scan_hourly_audience').select('qr_code_id').where('qr_code_id', 'in', before.codes).execute()).length;
      })
      .toBeGreaterThan(0);
    const bystanderIds = await idsOf(bystander.owner.accountId);
    const bystanderBefore = await rowsOfAccount(bystanderIds);
    expect(before.codes.length).toBeGreaterThanOrEqual(2);

    // Both instances have the short URLs cached (a scan just now), so only the erasure's notification can drop them
    // before the cache's 10 s are up.
    const other = await startAnother();
    const recorded = await scansOf(shop.owner.accountId);
    for (const instance of [app, other]) for (const slug of shop.slugs) expect(await scan(instance, slug)).toBeLessThan(400);
    // Written before the erasure (a scan written after it is the sweep's, tested below).
    await expect.poll(() => scansOf(shop.owner.accountId)).toBe(recorded + 2 * shop.slugs.length);

    const page = await shop.owner.http.get('/account/delete');
    expect(page.status).toBe(200);
    const refused = await shop.owner.http.post('/account/delete', { accountName: 'corner shop' });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("That is not the account's name");
    expect(Object.values(await rowsOfAccount(before)).some((rows) => rows > 0)).toBe(true);

    const erased = await shop.owner.http.post('/account/delete', { accountName: ' Corner Shop ' });
    expect(erased.status).toBe(200);
    expect(await erased.text()).toContain('Account deleted');
    // Signed out: the account page now asks to sign in.
    expect((await shop.owner.http.get('/account')).status).toBe(303);

    const left = await rowsOfAccount(before);
    expect(Object.entries(left).filter(([, rows]) => rows > 0)).toEqual([]);
    expect(Object.keys(left)).toEqual(
      expect.arrayContaining(['scan_groups.qr_code_id', 'scan_hourly.qr_code_id', 'scan_hourly_audience.qr_code_id', 'account_scan_hourly.account_id', 'file_chunks.file_id', 'sessions.user_id', 'webhook_attempts.delivery_id']),
    );
    // The other account is untouched; two tables move by themselves meanwhile: its failing webhook's retries add
    // attempts, and the counters' job folds scan increments into its codes.
    const moving = ['webhook_attempts.delivery_id', 'qr_code_scan_increments.qr_code_id'];
    const stable = (counts: Record<string, number>) => Object.fromEntries(Object.entries(counts).filter(([table]) => !moving.includes(table)));
    expect(stable(await rowsOfAccount(bystanderIds))).toEqual(stable(bystanderBefore));

    // Short URLs answer 404 at once on every instance (their caches were told), keys 401, and the other account still works.
    for (const instance of [app, other]) for (const slug of shop.slugs) await expect.poll(() => scan(instance, slug), { timeout: CHANGE_NOTICE_TIMEOUT_MS }).toBe(404);
    expect((await rawRequest(app, '/qrcodes', { apiKey: shop.key.apiKey })).status).toBe(401);
    expect((await rawRequest(app, '/qrcodes', { apiKey: bystander.key.apiKey })).status).toBe(200);
    expect(await scan(app, bystander.slugs[0]!)).toBe(302);

    // A retired slug is never given out again: an insert with it is skipped as a taken one is.
    const reused = await db
      .insertInto('qr_codes')
      .values({ id: 'qr_reuse', account_id: bystander.owner.accountId, name: 'Reuse', slug: shop.slugs[0]!, destination_url: 'https://example.com/', created_at: new Date(), updated_at: new Date() })
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning('id')
      .executeTakeFirst();
    expect(reused).toBeUndefined();
  });

  it('sweeps scans of erased codes that arrive after the erasure, and forgets the codes once no journal can replay one', async () => {
    const victim = await fullAccount('Scanned while erased');
    const codes = (await idsOf(victim.owner.accountId)).codes;
    await eraseAccount(db, victim.owner.accountId);
    await sweepErasedCodes(db, 31);
    // What a scan batch in flight (or a journal replayed after an outage) writes for a code a moment later.
    const hour = new Date('2026-11-26T10:00:00Z');
    await db.insertInto('scan_groups').values({ qr_code_id: codes[0]!, device: 'mobile', os: 'iOS', browser: 'Safari', destination_url: null, referrer_host: null, first_at: hour, times: null }).execute();
    await db.insertInto('qr_code_scan_increments').values({ qr_code_id: codes[0]!, scans: 1, bot_scans: 0 }).execute();
    await db.insertInto('scan_hourly').values({ qr_code_id: codes[0]!, hour, device: 'mobile', os: 'iOS', browser: 'Safari', scans: 1, unique_scans: 0 }).execute();
    expect(await sweepErasedCodes(db, 31)).toBe(1);
    const left = await rowsOfAccount({ accountId: victim.owner.accountId, codes, users: [], files: [], deliveries: [], imports: [] });
    expect(Object.entries(left).filter(([, rows]) => rows > 0)).toEqual([]);

    await db.updateTable('erased_codes').set({ erased_at: sql<Date>`now() - interval '32 days'` } as never).where('qr_code_id', 'in', codes).execute();
    await sweepErasedCodes(db, 31);
    expect(await db.selectFrom('erased_codes').select('qr_code_id').where('qr_code_id', 'in', codes).execute()).toEqual([]);
  });

  it('deletes from the CLI and prints what it erased, by kind', async () => {
    const victim = await fullAccount('To be erased');
    const config = loadConfig({});
    const admin = (args: string[]) => runCommand({ db, config, secretBox: () => loadSecretBox(config) }, args);
    // Kept by email, not by id: a failed sign-in of one of its people.
    await db.insertInto('login_failures').values({ key: emailKey(victim.member.email) }).execute();
    const result = JSON.parse(JSON.stringify(await admin(['accounts', 'delete', '--account', victim.owner.accountId]))) as { erased: Record<string, number> };
    expect(result.erased.loginFailures).toBe(1);
    expect(await db.selectFrom('login_failures').select('id').where('key', '=', emailKey(victim.member.email)).execute()).toEqual([]);
    expect(result.erased).toMatchObject({ account: 1, codes: 2, retiredSlugs: 2, scans: victim.scans, people: 2, apiKeys: 1, webhookEndpoints: 1, webhookDeliveries: victim.scans, designTemplates: 1, imports: 1, importRows: 1 });
    expect(result.erased.files).toBe(victim.fileBytes.size);
    expect(result.erased.fileBytes).toBe([...victim.fileBytes.values()].reduce((sum, bytes) => sum + bytes.length, 0));
    expect(result.erased.sessions).toBe(1);
    const again = await admin(['accounts', 'delete', '--account', victim.owner.accountId]).catch((error: unknown) => error);
    expect(isUserError(again)).toBe(true);
  });
});

/**
 * A transaction of another connection, kept open after `work` until the returned function commits it: a scan batch
 * or a rollup fold caught in the middle.
 */
async function held(work: (trx: Database) => Promise<unknown>): Promise<() => Promise<void>> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const ready = new Promise<void>((resolve) => (started = resolve));
  const done = db.transaction().execute(async (trx) => {
    await work(trx);
    started();
    await released;
  });
  await Promise.race([ready, done]);
  return async () => {
    release();
    await done;
  };
}

/** Whether a statement of this database starting with `text` is waiting for a lock. */
const waitingForLock = (text: string) => waitsForLock(db, { queryLike: `${text}%` });

describe('erasing a busy account', () => {
  async function accountWithCode(name: string) {
    const account = await createBareAccount(db, { name });
    const codeId = `qr_${randomBytes(6).toString('hex')}`;
    await db
      .insertInto('qr_codes')
      .values({ id: codeId, account_id: account.id, name, slug: `busy-${randomBytes(4).toString('hex')}`, destination_url: 'https://example.com/', created_at: new Date(), updated_at: new Date() })
      .execute();
    return { accountId: account.id, codeId };
  }

  it('erases a code whose scans a batch committed between the deletes of the scans and of the codes', async () => {
    const { accountId, codeId } = await accountWithCode('Scanned mid-erasure');
    // The batch's scan group, not yet committed when the erasure deletes scans. Its lock on the code is only a way
    // to hold the erasure at the codes' delete (no batch takes one) and let the batch commit right then.
    const commitBatch = await held(async (trx) => {
      await trx.insertInto('scan_groups').values({ qr_code_id: codeId, device: 'mobile', os: 'iOS', browser: 'Safari', destination_url: null, referrer_host: null, first_at: new Date(), times: null }).execute();
      await sql`select id from qr_codes where id = ${codeId} for update`.execute(trx);
    });
    const erasure = eraseAccount(db, accountId);
    erasure.catch(() => undefined);
    await expect.poll(() => waitingForLock('delete from "qr_codes"')).toBe(true);
    await commitBatch();
    await expect(erasure).resolves.toMatchObject({ account: 1, codes: 1, scans: 0 });
    // The late scan is the pruning job's.
    expect(await sweepErasedCodes(db, 31)).toBe(1);
  });

  it('waits for a rollup fold in progress before locking the account, so the two cannot deadlock', async () => {
    const { accountId } = await accountWithCode('Folded mid-erasure');
    const endFold = await held((trx) => sql`select folded_through_id from scan_rollup_state for update skip locked`.execute(trx));
    const erasure = eraseAccount(db, accountId);
    erasure.catch(() => undefined);
    await expect.poll(() => waitingForLock('select 1 from scan_rollup_state')).toBe(true);
    // Meanwhile the account row is free: the fold's foreign key checks on it (key share) would not wait.
    await db.transaction().execute((trx) => sql`select 1 from accounts where id = ${accountId} for key share nowait`.execute(trx));
    // A fold starting now skips its round instead of waiting.
    expect((await foldScans(db)).status).toBe('busy');
    await endFold();
    await expect(erasure).resolves.toMatchObject({ account: 1, codes: 1 });
  });
});
