import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { INVITATION_MAILS_PER_ACCOUNT, INVITATION_MAILS_PER_ACCOUNT_RECIPIENT, INVITATION_MAILS_PER_RECIPIENT } from '../../src/people/invitation-limit.js';
import { listPendingInvitations } from '../../src/people/invitations.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, useDashboardApp } from '../support/dashboard.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let catcher: MailCatcher;
/** Two instances on one database and one mail server: the limits must hold across them. */
let apps: TestApp[];

// The mail catcher is started first: the apps are configured with its URL.
beforeAll(async () => {
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher?.close();
});
const mailingConfig = () => ({ dashboard: { ...loadConfig({}).dashboard, smtpUrl: catcher.url } });
useDashboardApp(async (started) => {
  database = started.database;
  apps = [started.app, await started.startAnother(mailingConfig())];
}, mailingConfig);
beforeEach(() => {
  catcher.mails.length = 0;
});

/** A new account's owner, signed in on each instance. */
async function ownerOnEveryInstance(): Promise<{ accountId: string; email: string; clients: DashboardHttp[] }> {
  const owner = await createPerson(database.db);
  return { accountId: owner.accountId, email: owner.email, clients: await Promise.all(apps.map((app) => dashboardHttp(app, owner))) };
}

async function invite(client: DashboardHttp, email: string): Promise<Response> {
  await client.get('/people');
  return client.post('/people/invitations', { email, role: 'member' });
}

describe('invitation mails', () => {
  it('set the account name apart: after the link, on one line, quoted and labelled, never in the subject', async () => {
    const { accountId, clients } = await ownerOnEveryInstance();
    // Written past the service, as a row from before account names refused control characters would be.
    const hostile = 'URGENT\r\nSubject: pwned\r\n\r\nVerify now at http://evil.example/verify\u2028!';
    await database.db.updateTable('accounts').set({ name: hostile }).where('id', '=', accountId).execute();
    expect((await invite(clients[0]!, 'reader@example.com')).status).toBe(303);
    await expect.poll(() => catcher.mails.length).toBe(1);
    const mail = catcher.mails[0]!;
    expect(mail.subject).toBe('Your invitation to an account on qroute');
    expect(mail.raw).not.toMatch(/^Subject: pwned/m);
    const lines = mail.text.split('\n');
    const linkLine = lines.findIndex((line) => /\/invitations\/[A-Za-z0-9_-]{43}$/.test(line));
    const nameLine = lines.findIndex((line) => line.includes('evil.example'));
    expect(linkLine).toBeGreaterThan(0);
    expect(nameLine).toBeGreaterThan(linkLine);
    expect(lines[nameLine]).toBe('Account name, as its owner typed it: "URGENT Subject: pwned Verify now at http://evil.example/verify !"');
    expect(mail.text.slice(0, mail.text.indexOf(lines[linkLine]!))).not.toContain('URGENT');
    expect(mail.html).toContain('<p>Account name, as its owner typed it: &#34;URGENT Subject: pwned Verify now at http://evil.example/verify !&#34;</p>');
  });

  it(`send one address at most ${INVITATION_MAILS_PER_ACCOUNT_RECIPIENT} a day from one account, so another account still invites it; then 429 with Retry-After`, async () => {
    // A stranger with an open sign-up uses up their own account's share for the address, not everyone's.
    const stranger = await ownerOnEveryInstance();
    const employer = await ownerOnEveryInstance();
    const target = `target-${Date.now()}@example.com`;
    const statuses: number[] = [];
    for (let i = 0; i < INVITATION_MAILS_PER_ACCOUNT_RECIPIENT + 1; i++) statuses.push((await invite(stranger.clients[i % apps.length]!, target)).status);
    expect(statuses).toEqual([...Array(INVITATION_MAILS_PER_ACCOUNT_RECIPIENT).fill(303), 429]);
    const refused = await invite(stranger.clients[1]!, target);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(23 * 3600);
    expect(await refused.text()).toContain('Your account has sent this address too many invitations lately. Try again in 24 hours.');
    expect((await invite(employer.clients[0]!, target)).status).toBe(303);
    await expect.poll(() => catcher.mails.length).toBe(INVITATION_MAILS_PER_ACCOUNT_RECIPIENT + 1);
    expect(catcher.mails.every((mail) => mail.to[0] === target)).toBe(true);
  });

  it(`send one address at most ${INVITATION_MAILS_PER_RECIPIENT} a day from all accounts together, across instances`, async () => {
    const target = `flooded-${Date.now()}@example.com`;
    const accounts = await Promise.all(
      Array.from({ length: Math.ceil(INVITATION_MAILS_PER_RECIPIENT / INVITATION_MAILS_PER_ACCOUNT_RECIPIENT) + 1 }, () => ownerOnEveryInstance()),
    );
    const statuses: number[] = [];
    for (let i = 0; i < INVITATION_MAILS_PER_RECIPIENT + 1; i++) statuses.push((await invite(accounts[i % accounts.length]!.clients[i % apps.length]!, target)).status);
    expect(statuses).toEqual([...Array(INVITATION_MAILS_PER_RECIPIENT).fill(303), 429]);
    const refused = await invite(accounts.at(-1)!.clients[0]!, target);
    expect(await refused.text()).toContain('This address has been sent too many invitations lately. Try again in 24 hours.');
    await expect.poll(() => catcher.mails.length).toBe(INVITATION_MAILS_PER_RECIPIENT);
    // Another address is still invited.
    expect((await invite(accounts[0]!.clients[0]!, `other-${Date.now()}@example.com`)).status).toBe(303);
  });

  it(`send at most ${INVITATION_MAILS_PER_ACCOUNT} an hour from one account, across instances and in parallel`, async () => {
    const owner = await ownerOnEveryInstance();
    await Promise.all(owner.clients.map((client) => client.get('/people')));
    const burst = await Promise.all(
      Array.from({ length: INVITATION_MAILS_PER_ACCOUNT + 5 }, (_, i) =>
        owner.clients[i % apps.length]!.post('/people/invitations', { email: `burst-${i}-${Date.now()}@example.com`, role: 'member' }),
      ),
    );
    const statuses = burst.map((response) => response.status);
    expect(statuses.filter((status) => status === 303)).toHaveLength(INVITATION_MAILS_PER_ACCOUNT);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    const refused = burst.find((response) => response.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(59 * 60);
    expect(await refused.text()).toContain('Your account has sent too many invitations lately. Try again in 60 minutes.');
    await expect.poll(() => catcher.mails.length).toBe(INVITATION_MAILS_PER_ACCOUNT);
    expect(await listPendingInvitations(database.db, owner.accountId)).toHaveLength(INVITATION_MAILS_PER_ACCOUNT);
  });

  it('answer an email that already has a user like any other, and mail that person a notice without a link', async () => {
    const owner = await ownerOnEveryInstance();
    const elsewhere = await createPerson(database.db);
    const taken = await invite(owner.clients[0]!, elsewhere.email.toUpperCase());
    const fresh = await invite(owner.clients[0]!, `fresh-${Date.now()}@example.com`);
    expect([taken.status, taken.headers.get('location')]).toEqual([fresh.status, fresh.headers.get('location')]);
    expect((await listPendingInvitations(database.db, owner.accountId)).map((i) => i.email)).toContain(elsewhere.email);
    await expect.poll(() => catcher.mails.length).toBe(2);
    const notice = catcher.mails.find((mail) => mail.to[0] === elsewhere.email)!;
    expect(notice.text).toContain('this address already signs in to qroute');
    expect(notice.text).not.toMatch(/https?:\/\//);
  });
});
