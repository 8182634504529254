import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getAccount } from '../../src/accounts/account-service.js';
import { loadConfig } from '../../src/config.js';
import { listPendingInvitations } from '../../src/people/invitations.js';
import { SIGNUPS_PER_IP } from '../../src/people/signup-limit.js';
import { findUserByEmail, getUser, listUsers } from '../../src/people/users.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, startDashboardApp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { createSignedInPerson, createTestInvitation } from '../support/factories.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;

useDashboardApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createPerson(database.db, { accountName: 'Acme Bakery' });
});

const NEW_PASSWORD = 'correct horse battery staple';

/** The one-time link the People page shows when there is no mail server. */
function shownLink(html: string): string {
  const url = /<input id="shown-link"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!url) throw new Error('no link shown on the page');
  return url;
}

/** Whether a client's session still opens a signed-in page. */
async function signedIn(http: DashboardHttp): Promise<boolean> {
  const response = await http.get('/account');
  if (response.status === 303) expect(response.headers.get('location')).toMatch(/^\/login/);
  return response.status === 200;
}

describe('who may open People', () => {
  it('answers a member 403 on /people and on every People action, and changes nothing', async () => {
    const { http, ...member } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    expect((await http.get('/people')).status).toBe(403);
    expect((await http.get(`/people/${owner.userId}/remove`)).status).toBe(403);
    const posts: Array<[string, Record<string, string>]> = [
      ['/people/invitations', { email: 'friend@example.com', role: 'owner' }],
      [`/people/${member.userId}/role`, { role: 'owner' }],
      [`/people/${owner.userId}/remove`, {}],
      [`/people/${owner.userId}/reset-link`, {}],
    ];
    for (const [path, fields] of posts) expect((await http.post(path, fields)).status, path).toBe(403);
    expect((await getUser(database.db, member.userId))?.role).toBe('member');
    expect(await getUser(database.db, owner.userId)).toBeDefined();
    expect(await listPendingInvitations(database.db, owner.accountId)).toEqual([]);
    // Their own account page is theirs to open.
    expect((await http.get('/account')).status).toBe(200);
  });

  it("answers 404 for another account's people and invitations, and leaves them alone", async () => {
    const other = await createPerson(database.db, { accountName: 'Other Ltd' });
    const otherMember = await createPerson(database.db, { accountId: other.accountId, role: 'member' });
    const invitation = await createTestInvitation(database.db, { accountId: other.accountId, email: 'guest@example.com', siteUrl: app.origin });
    const http = await dashboardHttp(app, owner);
    expect((await http.get(`/people/${otherMember.userId}/remove`)).status).toBe(404);
    expect((await http.get(`/people/invitations/${invitation.id}/revoke`)).status).toBe(404);
    for (const path of [`/people/${otherMember.userId}/role`, `/people/${otherMember.userId}/remove`, `/people/${otherMember.userId}/reset-link`]) {
      expect((await http.post(path, { role: 'owner' })).status, path).toBe(404);
    }
    expect((await http.post(`/people/invitations/${invitation.id}/revoke`, {})).status).toBe(404);
    expect((await getUser(database.db, otherMember.userId))?.role).toBe('member');
    expect((await listPendingInvitations(database.db, other.accountId)).map((pending) => pending.id)).toEqual([invitation.id]);
  });
});

describe('invitations from People', () => {
  it('shows the link once without a mail server; it works once, signs the person in on /codes, then is gone (410)', async () => {
    const http = await dashboardHttp(app, owner);
    const invited = await http.post('/people/invitations', { email: 'New.Baker@Example.com', role: 'member' });
    expect(invited.status).toBe(200);
    const url = shownLink(await invited.text());
    const path = new URL(url).pathname;

    const guest = await dashboardHttp(app);
    const page = await guest.get(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Acme Bakery');
    expect(html).toContain('new.baker@example.com');

    const mismatch = await guest.post(path, { password: NEW_PASSWORD, confirm: 'something else entirely' });
    expect(mismatch.status).toBe(400);
    expect(await mismatch.text()).toContain('The two passwords are not the same');
    expect((await guest.post(path, { password: 'short', confirm: 'short' })).status).toBe(400);

    const accepted = await guest.post(path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(accepted.status).toBe(303);
    expect(accepted.headers.get('location')).toBe('/codes');
    const account = await (await guest.get('/account')).text();
    expect(account).toContain('new.baker@example.com');
    expect(account).toContain('Member');

    const again = await dashboardHttp(app);
    expect((await again.get(path)).status).toBe(410);
    expect((await again.post(path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD })).status).toBe(410);
    expect((await again.get(`/invitations/${'x'.repeat(43)}`)).status).toBe(410);
  });

  it('refuses a malformed email, and without a mail server an email that already has a user, next to the field, keeping what was typed', async () => {
    const http = await dashboardHttp(app, owner);
    const malformed = await http.post('/people/invitations', { email: 'not an email', role: 'owner' });
    expect(malformed.status).toBe(400);
    const html = await malformed.text();
    expect(html).toMatch(/aria-invalid="true"[^>]*aria-describedby="invite-email-error"|aria-describedby="invite-email-error"/);
    expect(html).toContain('value="not an email"');
    expect(html).toMatch(/<option value="owner" selected/);
    expect((await http.post('/people/invitations', { email: owner.email, role: 'member' })).status).toBe(409);
  });

  it('revokes a pending invitation after a confirmation page naming it; the link then fails', async () => {
    const http = await dashboardHttp(app, owner);
    const url = shownLink(await (await http.post('/people/invitations', { email: 'revoked@example.com', role: 'member' })).text());
    const pending = (await listPendingInvitations(database.db, owner.accountId)).find((invitation) => invitation.email === 'revoked@example.com')!;
    const confirm = await http.get(`/people/invitations/${pending.id}/revoke`);
    expect(await confirm.text()).toContain('revoked@example.com');
    const revoked = await http.post(`/people/invitations/${pending.id}/revoke`, {});
    expect(revoked.headers.get('location')).toBe('/people?done=invitation-revoked');
    expect((await (await dashboardHttp(app)).get(new URL(url).pathname)).status).toBe(410);
  });
});

describe('roles and removal', () => {
  it('keeps the last owner: demoting or removing them is refused with the reason on the page', async () => {
    const { http, ...solo } = await createSignedInPerson(database.db, app, { accountName: 'Solo' });
    const demote = await http.post(`/people/${solo.userId}/role`, { role: 'member' });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain('An account needs at least one owner.');
    expect((await http.post(`/people/${solo.userId}/remove`, {})).status).toBe(409);
    expect((await getUser(database.db, solo.userId))?.role).toBe('owner');
  });

  it('promotes a member at once, and removing someone signs them out for good', async () => {
    const boss = await createPerson(database.db, { accountName: 'Roles' });
    const { http: memberHttp, ...member } = await createSignedInPerson(database.db, app, { accountId: boss.accountId, role: 'member' });
    const http = await dashboardHttp(app, boss);
    expect((await http.post(`/people/${member.userId}/role`, { role: 'owner' })).headers.get('location')).toBe('/people?done=role-changed');
    expect((await memberHttp.get('/people')).status).toBe(200);
    expect(await (await http.get(`/people/${member.userId}/remove`)).text()).toContain(`Remove ${member.email}?`);
    expect((await http.post(`/people/${member.userId}/remove`, {})).status).toBe(303);
    expect(await signedIn(memberHttp)).toBe(false);
    expect((await listUsers(database.db, boss.accountId)).map((user) => user.id)).toEqual([boss.userId]);
  });
});

describe('passwords and sessions', () => {
  it('a reset link from an owner ends every session of the person and signs them in with the new password', async () => {
    const { http: elsewhere, ...member } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    const http = await dashboardHttp(app, owner);
    const made = await http.post(`/people/${member.userId}/reset-link`, {});
    expect(made.status).toBe(200);
    const path = new URL(shownLink(await made.text())).pathname;

    const browser = await dashboardHttp(app);
    expect((await browser.get(path)).status).toBe(200);
    const reset = await browser.post(path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(reset.headers.get('location')).toBe('/codes');
    expect(await signedIn(browser)).toBe(true);
    expect(await signedIn(elsewhere)).toBe(false);
    expect((await (await dashboardHttp(app)).post('/login', { email: member.email, password: member.password })).status).toBe(401);
    expect((await (await dashboardHttp(app)).get(path)).status).toBe(410);
  });

  it('changing the password ends the other sessions but not this one; a wrong current password changes nothing', async () => {
    const { http: here, ...person } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    const there = await dashboardHttp(app, person);
    const wrong = await here.post('/account/password', { currentPassword: 'not it at all', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain('The current password is not correct.');
    expect(await signedIn(there)).toBe(true);

    const changed = await here.post('/account/password', { currentPassword: person.password, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(changed.headers.get('location')).toBe('/account?done=password-changed');
    expect(await signedIn(here)).toBe(true);
    expect(await signedIn(there)).toBe(false);
    expect((await (await dashboardHttp(app)).post('/login', { email: person.email, password: NEW_PASSWORD })).status).toBe(303);
  });

  it('"Sign out everywhere" makes a cookie copied before it useless, this browser included', async () => {
    const { http, ...person } = await createSignedInPerson(database.db, app, { accountId: owner.accountId, role: 'member' });
    const stolen = http.cookie;
    const other = await dashboardHttp(app, person);
    const response = await http.post('/account/sign-out-everywhere', {});
    expect(response.headers.get('location')).toBe('/login');
    const replay = await fetch(`${app.origin}/codes`, { headers: { cookie: stolen }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toMatch(/^\/login/);
    expect(await signedIn(other)).toBe(false);
  });

  it('shows the plan and the codes used of its limit, and where the API is for other plans', async () => {
    const free = await createPerson(database.db, { plan: 'free' });
    const html = await (await (await dashboardHttp(app, free)).get('/account')).text();
    expect(html).toContain('Free');
    expect(html).toContain('0 of 3 codes used');
    expect(html).toContain('Business plan at 39 EUR/month');
  });
});

describe('CSRF on People and Account', () => {
  it('refuses writes without the token or with a wrong one, signed in or not', async () => {
    const http = await dashboardHttp(app, owner);
    for (const csrf of [false, 'wrong'] as const) {
      expect((await http.post('/people/invitations', { email: 'csrf@example.com', role: 'owner' }, { csrf })).status).toBe(403);
      expect((await http.post('/account/sign-out-everywhere', {}, { csrf })).status).toBe(403);
    }
    expect(await signedIn(http)).toBe(true);
    expect((await listPendingInvitations(database.db, owner.accountId)).some((invitation) => invitation.email === 'csrf@example.com')).toBe(false);
    const invitation = await createTestInvitation(database.db, { accountId: owner.accountId, email: 'csrf2@example.com', siteUrl: app.origin });
    const guest = await dashboardHttp(app);
    const path = new URL(invitation.url).pathname;
    expect((await guest.post(path, { password: NEW_PASSWORD, confirm: NEW_PASSWORD }, { csrf: false })).status).toBe(403);
    expect((await guest.get(path)).status).toBe(200);
  });
});

describe('sign-up', () => {
  it('does not exist unless SIGNUP=open', async () => {
    const http = await dashboardHttp(app);
    expect((await http.get('/signup')).status).toBe(404);
    expect((await http.post('/signup', { accountName: 'X', email: 'x@example.com', password: NEW_PASSWORD, confirm: NEW_PASSWORD })).status).toBe(404);
  });

  it('with SIGNUP=open creates an account on SIGNUP_PLAN with this person as owner, signed in', async () => {
    const open = await startDashboardApp(database, { dashboard: { ...loadConfig({}).dashboard, signup: 'open', signupPlan: 'starter' } });
    try {
      const http = await dashboardHttp(open);
      expect(await (await http.get('/signup')).text()).toContain('Starter plan');
      const taken = await http.post('/signup', { accountName: 'Dup', email: owner.email, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(taken.status).toBe(409);
      const response = await http.post('/signup', { accountName: '  Corner Shop ', email: 'shop@example.com', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect(response.headers.get('location')).toBe('/codes');
      expect((await http.get('/people')).status).toBe(200);
      const user = await findUserByEmail(database.db, 'shop@example.com');
      expect(user?.role).toBe('owner');
      expect(await getAccount(database.db, user!.accountId)).toMatchObject({ name: 'Corner Shop', plan: 'starter' });
    } finally {
      await open.close();
    }
  });
});

describe('sign-up limit', () => {
  it(`opens at most ${SIGNUPS_PER_IP} accounts per address per 15 minutes, answering 429 past it; a failed sign-up does not count`, async () => {
    const open = await startDashboardApp(database, { dashboard: { ...loadConfig({}).dashboard, signup: 'open', signupPlan: 'starter' } });
    try {
      // Every request here comes from 127.0.0.1: forget the sign-ups earlier tests in this file made from it.
      await database.db.deleteFrom('login_failures').where('key', 'like', 'signup-%').execute();
      const form = (email: string) => ({ accountName: 'Stall', email, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
      expect((await (await dashboardHttp(open)).post('/signup', form(owner.email))).status).toBe(409);
      const emails = Array.from({ length: SIGNUPS_PER_IP }, (_, i) => `stall-${i}-${Date.now()}@example.com`);
      for (const email of emails) expect((await (await dashboardHttp(open)).post('/signup', form(email))).status).toBe(303);
      const refused = await (await dashboardHttp(open)).post('/signup', form('one-stall-too-many@example.com'));
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(14 * 60);
      expect(await refused.text()).toContain('Too many new accounts from your network. Try again in 15 minutes.');
      expect(await findUserByEmail(database.db, 'one-stall-too-many@example.com')).toBeUndefined();
    } finally {
      await open.close();
    }
  });
});

describe('sign-up with a mail server', () => {
  let catcher: MailCatcher;
  let open: TestApp;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    open = await startDashboardApp(database, { dashboard: { ...loadConfig({}).dashboard, signup: 'open', signupPlan: 'starter', smtpUrl: catcher.url } });
  });
  afterAll(async () => {
    await open?.close();
    await catcher?.close();
  });

  it('answers a taken and a new email alike, mails a notice or a link, and makes the account only from the link', async () => {
    // Every request here comes from 127.0.0.1: forget the sign-ups earlier tests in this file made from it.
    await database.db.deleteFrom('login_failures').where('key', 'like', 'signup-%').execute();
    catcher.mails.length = 0;
    const fresh = `fresh-${Date.now()}@example.com`;
    const form = (email: string) => ({ accountName: 'Corner Shop', email, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    const taken = await (await dashboardHttp(open)).post('/signup', form(owner.email));
    const made = await (await dashboardHttp(open)).post('/signup', form(fresh));
    // Each answer carries its own CSRF token (a form field and htmx's header) and the email typed.
    const page = async (response: Response, email: string) =>
      (await response.text()).replace(/name="_csrf" value="[^"]+"|x-csrf-token&quot;:&quot;[^&]+/g, '').replaceAll(email, 'EMAIL');
    expect([taken.status, made.status]).toEqual([200, 200]);
    expect(await page(taken, owner.email)).toBe(await page(made, fresh));
    await expect.poll(() => catcher.mails.length).toBe(2);
    expect(await findUserByEmail(database.db, fresh)).toBeUndefined();

    const notice = catcher.mails.find((mail) => mail.to[0] === owner.email)!;
    expect(notice.subject).toBe('You already have a qroute account');
    expect(notice.text).toContain(`${open.origin}/password-reset`);
    const confirmation = catcher.mails.find((mail) => mail.to[0] === fresh)!;
    const link = /\/signup\/confirm\/[A-Za-z0-9_-]{43}/;
    expect(confirmation.text, 'the confirmation mail carries its link').toMatch(link);
    const path = link.exec(confirmation.text)![0];
    const http = await dashboardHttp(open);
    expect(/<input[^>]*name="accountName"[^>]*>/.exec(await (await http.get(path)).text())?.[0]).toContain('value="Corner Shop"');
    expect(await findUserByEmail(database.db, fresh)).toBeUndefined();
    const confirmed = await http.post(path, { accountName: 'Corner Shop', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(confirmed.headers.get('location')).toBe('/codes');
    expect((await http.get('/people')).status).toBe(200);
    const user = await findUserByEmail(database.db, fresh);
    expect(user?.role).toBe('owner');
    expect(await getAccount(database.db, user!.accountId)).toMatchObject({ name: 'Corner Shop', plan: 'starter' });
    // The link works once; the password chosen on the link's page signs in.
    expect((await (await dashboardHttp(open)).get(path)).status).toBe(410);
    expect(await signedIn(await dashboardHttp(open, { email: fresh, password: NEW_PASSWORD }))).toBe(true);
  });

  it("lets whoever holds the mailed link choose the password and the account name, not whoever filled the form", async () => {
    await database.db.deleteFrom('login_failures').where('key', 'like', 'signup-%').execute();
    const victim = `victim-${Date.now()}@example.com`;
    const attackerPassword = 'the attacker chose this one';
    // A stranger signs up with the victim's address, a name and a password of their choosing.
    const attacker = await dashboardHttp(open);
    await attacker.get('/signup');
    expect((await attacker.post('/signup', { accountName: 'Attacker Inc', email: victim, password: attackerPassword, confirm: attackerPassword })).status).toBe(200);
    await expect.poll(() => catcher.mails.filter((mail) => mail.to[0] === victim).length).toBe(1);
    const path = /\/signup\/confirm\/[A-Za-z0-9_-]{43}/.exec(catcher.mails.find((mail) => mail.to[0] === victim)!.text)![0];
    // The mailbox's owner sees the name the form gave, in a field they can change, and chooses the password.
    const http = await dashboardHttp(open);
    const shown = await (await http.get(path)).text();
    expect(/<input[^>]*name="accountName"[^>]*>/.exec(shown)?.[0]).toContain('value="Attacker Inc"');
    expect(shown).toContain('name="password"');
    const refused = await http.post(path, { accountName: 'Victim Co', password: 'short', confirm: 'short' });
    expect(refused.status).toBe(400);
    expect(await findUserByEmail(database.db, victim)).toBeUndefined();
    const confirmed = await http.post(path, { accountName: '  Victim Co ', password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    expect(confirmed.headers.get('location')).toBe('/codes');
    const user = await findUserByEmail(database.db, victim);
    expect(await getAccount(database.db, user!.accountId)).toMatchObject({ name: 'Victim Co' });
    expect(await signedIn(await dashboardHttp(open, { email: victim, password: NEW_PASSWORD }))).toBe(true);
    await expect(dashboardHttp(open, { email: victim, password: attackerPassword })).rejects.toThrow();
    // Nothing of the form's password was kept anywhere.
    const { rows: columns } = await sql<{ column_name: string }>`select column_name from information_schema.columns where table_name = 'signup_requests'`.execute(database.db);
    expect(columns.map((row) => row.column_name).sort()).toEqual(['account_name', 'created_at', 'email', 'expires_at', 'token_hash']);
  });

  it(`counts every sign-up against the address's limit, a taken email too, so the ${SIGNUPS_PER_IP + 1}th tells nothing either`, async () => {
    await database.db.deleteFrom('login_failures').where('key', 'like', 'signup-%').execute();
    const form = (email: string) => ({ accountName: 'Stall', email, password: NEW_PASSWORD, confirm: NEW_PASSWORD });
    const emails = [owner.email, ...Array.from({ length: SIGNUPS_PER_IP - 1 }, (_, i) => `counted-${i}-${Date.now()}@example.com`)];
    for (const email of emails) expect((await (await dashboardHttp(open)).post('/signup', form(email))).status).toBe(200);
    expect((await (await dashboardHttp(open)).post('/signup', form(owner.email))).status).toBe(429);
    expect((await (await dashboardHttp(open)).post('/signup', form(`counted-last-${Date.now()}@example.com`))).status).toBe(429);
  });

  it('mails one address once per 5 minutes however often the form names it, and still refuses a bad form at its field', async () => {
    await database.db.deleteFrom('login_failures').where('key', 'like', 'signup-%').execute();
    catcher.mails.length = 0;
    const email = `repeat-${Date.now()}@example.com`;
    const form = { accountName: 'Stall', email, password: NEW_PASSWORD, confirm: NEW_PASSWORD };
    for (let i = 0; i < 3; i++) expect((await (await dashboardHttp(open)).post('/signup', form)).status).toBe(200);
    const badName = await (await dashboardHttp(open)).post('/signup', { ...form, accountName: ' ' });
    expect(badName.status).toBe(400);
    // Sent after the repeats: once it has arrived, a second mail to the first address would have too.
    const other = `other-${Date.now()}@example.com`;
    await (await dashboardHttp(open)).post('/signup', { ...form, email: other });
    await expect.poll(() => catcher.mails.filter((mail) => mail.to[0] === other).length).toBe(1);
    expect(catcher.mails.filter((mail) => mail.to[0] === email)).toHaveLength(1);
  });
});

describe('password reset by email', () => {
  let catcher: MailCatcher;
  let mailApp: TestApp;
  beforeAll(async () => {
    catcher = await startMailCatcher();
    mailApp = await startDashboardApp(database, { dashboard: { ...loadConfig({}).dashboard, smtpUrl: catcher.url } });
  });
  afterAll(async () => {
    await mailApp?.close();
    await catcher?.close();
  });

  it('answers a known and an unknown email alike, and mails a working link to the known one only', async () => {
    const http = await dashboardHttp(mailApp);
    const known = await http.post('/password-reset', { email: owner.email.toUpperCase() });
    const unknown = await http.post('/password-reset', { email: 'nobody-here@example.com' });
    const strip = (html: string) => html.replace(/name="_csrf" value="[^"]+"/g, '');
    expect(known.status).toBe(200);
    expect(strip(await known.text())).toBe(strip(await unknown.text()));
    await expect.poll(() => catcher.mails.length).toBe(1);
    expect(catcher.mails[0]!.to).toEqual([owner.email]);
    const url = /\/password-reset\/[A-Za-z0-9_-]{43}/.exec(catcher.mails[0]!.text)?.[0];
    expect((await (await dashboardHttp(mailApp)).get(url!)).status).toBe(200);
  });

  it('mails one person once however often the form is sent, and still mails others', async () => {
    const asker = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
    const other = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
    const http = await dashboardHttp(mailApp);
    for (let i = 0; i < 3; i++) expect((await http.post('/password-reset', { email: asker.email })).status).toBe(200);
    await expect.poll(() => catcher.mails.filter((mail) => mail.to.includes(asker.email)).length).toBe(1);
    // Sent after the repeats: once it has arrived, a second mail to the asker would have too.
    await http.post('/password-reset', { email: other.email });
    await expect.poll(() => catcher.mails.filter((mail) => mail.to.includes(other.email)).length).toBe(1);
    expect(catcher.mails.filter((mail) => mail.to.includes(asker.email))).toHaveLength(1);
  });

  it('says without a mail server that an owner makes the link', async () => {
    const html = await (await (await dashboardHttp(app)).get('/password-reset')).text();
    expect(html).toContain('ask an owner of your account');
    expect(html).not.toContain('Send reset link');
  });
});
