import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { isUserError, runCommand } from '../../src/cli/commands.js';
import { runUserCommand } from '../../src/cli/user-commands.js';
import { loadConfig } from '../../src/config.js';
import { recordedSiteUrl, recordSiteUrl } from '../../src/db/site-url.js';
import { freePort } from '../../src/net.js';
import { acceptInvitation, findPendingInvitation } from '../../src/people/invitations.js';
import { authenticateUser } from '../../src/people/users.js';
import { loadSecretBox } from '../../src/webhooks/secret-box.js';
import { runCli, runCliJson } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);

/*
 * Two commands run as real processes (what main.ts prints: the JSON on stdout, a warning on stderr with exit 0);
 * the rest are the same commands in this process (`admin`, `expectRefused`), since a process is about a second of
 * CPU spent starting node. How any refusal reaches the operator (exit 1, stderr) is checked in cli.test.ts.
 */
describe('admin CLI: users', { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let catcher: MailCatcher;
  let env: NodeJS.ProcessEnv;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    catcher = await startMailCatcher();
    env = { ...process.env, DATABASE_URL: database.connectionString, SITE_URL: 'https://qr.example.com' };
    delete env.SMTP_URL;
    delete env.MAIL_FROM;
    accountId = (await createAccount(database.db, { name: 'Acme', plan: 'business' })).id;
    // A server ran on this database with another SITE_URL: the CLI's own SITE_URL (above) still wins.
    await recordSiteUrl(database.db, 'https://elsewhere.example.com');
  });
  afterAll(async () => {
    await catcher?.close();
    await database?.destroy();
  });

  /** The command in this process with the settings `environment` gives the CLI; what it prints, parsed. */
  async function admin(args: string[], environment: NodeJS.ProcessEnv = env): Promise<any> {
    const config = loadConfig(environment);
    const context = { db: database.db, config, secretBox: () => loadSecretBox(config), warn: (line: string) => expect.fail(`unexpected ${line}`) };
    return JSON.parse(JSON.stringify(await runCommand(context, args)));
  }

  /** Refused as a mistake of the operator's (isUserError: printed as "error: <message>" with exit 1), changing nothing. */
  async function expectRefused(args: string[], message: RegExp): Promise<void> {
    const invitations = async () => (await database.db.selectFrom('invitations').select('id').execute()).length;
    const before = await invitations();
    const refused = await admin(args).then(() => undefined, (error: unknown) => error);
    expect(isUserError(refused), String(refused)).toBe(true);
    expect((refused as Error).message).toMatch(message);
    expect(await invitations()).toBe(before);
  }

  it('users invite prints a one-time link for an owner by default; the link lets the person in once', async () => {
    const printed = await runCliJson(['users', 'invite', '--account', accountId, '--email', ' Ada@Example.com'], env);
    expect(Object.keys(printed)).toEqual(['id', 'accountId', 'email', 'role', 'url', 'expiresAt']);
    expect(printed).toMatchObject({ id: expect.stringMatching(/^inv_/), accountId, email: 'ada@example.com', role: 'owner' });
    expect(printed.url).toMatch(/^https:\/\/qr\.example\.com\/invitations\/[A-Za-z0-9_-]{43}$/);
    expect(printed.expiresAt).toMatch(ISO_UTC);
    const days = (Date.parse(printed.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);

    expect(await findPendingInvitation(database.db, tokenOf(printed.url))).toMatchObject({ accountName: 'Acme', role: 'owner' });
    const user = await acceptInvitation(database.db, { token: tokenOf(printed.url), password: 'correct horse battery' });
    expect(await authenticateUser(database.db, { email: 'ada@example.com', password: 'correct horse battery' })).toMatchObject({ id: user.id, role: 'owner' });

    const listed = await admin(['users', 'list', '--account', accountId]);
    expect(listed.users).toEqual([{ id: user.id, accountId, email: 'ada@example.com', role: 'owner', createdAt: expect.stringMatching(ISO_UTC) }]);
    expect(listed.pendingInvitations).toEqual([]);
  });

  it('users invite --role member, with SMTP_URL set, also emails the link and says so', async () => {
    const printed = await admin(['users', 'invite', '--account', accountId, '--email', 'grace@example.com', '--role', 'member'], { ...env, SMTP_URL: catcher.url });
    expect(printed).toMatchObject({ email: 'grace@example.com', role: 'member', emailed: true });
    expect(catcher.mails.map((mail) => mail.to)).toEqual([['grace@example.com']]);
    expect(catcher.mails[0]!.text).toContain(printed.url);
    // The account name is a stranger's words (open sign-up): never in the subject, labelled and after the link.
    expect(catcher.mails[0]!.subject).toBe('Your invitation to an account on qroute');
    expect(catcher.mails[0]!.text.indexOf('"Acme"')).toBeGreaterThan(catcher.mails[0]!.text.indexOf(printed.url));

    const listed = await admin(['users', 'list', '--account', accountId]);
    expect(listed.pendingInvitations).toMatchObject([{ id: printed.id, email: 'grace@example.com', role: 'member', invitedByEmail: null }]);
  });

  it('users invite still prints the link when the mail server is down, with "emailed": false and a warning', async () => {
    const result = await runCli(
      ['users', 'invite', '--account', accountId, '--email', 'linus@example.com'],
      { ...env, SMTP_URL: `smtp://127.0.0.1:${await freePort()}` },
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ email: 'linus@example.com', emailed: false, url: expect.stringContaining('/invitations/') });
    expect(result.stderr).toMatch(/warning: The mail server did not take the message.*hand the link over yourself/);
  });

  it.each([
    [['--email', 'x@example.com', '--role', 'admin'], /--role must be owner or member/],
    [['--email', 'not-an-email'], /Enter an email address/],
    [['--email', 'ada@example.com'], /already belongs to a qroute user/],
  ])('users invite %j is refused with a message', async (flags, message) => {
    await expectRefused(['users', 'invite', '--account', accountId, ...flags], message);
  });

  it('users invite warns that its link is a guess when neither SITE_URL nor a server says where qroute is', async () => {
    const fresh = await createTestDatabase(); // no server has run on it
    try {
      const account = await createAccount(fresh.db, { name: 'Fresh', plan: 'business' });
      const warnings: string[] = [];
      const config = loadConfig({ PORT: '3000' }, { serverSiteUrl: await recordedSiteUrl(fresh.db) });
      const printed = await runUserCommand({ db: fresh.db, config, warn: (line) => warnings.push(line) }, 'invite',
        new Map([['account', account.id], ['email', 'new@example.com']])) as { url: string };
      expect(printed.url).toMatch(/^http:\/\/localhost:3000\/invitations\//);
      expect(warnings).toEqual([expect.stringMatching(/^warning: the link starts with http:\/\/localhost:3000, a guess: SITE_URL is not set here and no server has run on this database/)]);
    } finally {
      await fresh.destroy();
    }
  });

  it('users invite and list refuse an unknown account', async () => {
    for (const args of [['users', 'invite', '--account', 'acc_nope', '--email', 'x@example.com'], ['users', 'list', '--account', 'acc_nope']]) {
      await expectRefused(args, /no account with id acc_nope/);
    }
  });
});
