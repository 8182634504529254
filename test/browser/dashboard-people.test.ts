import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import { loadConfig } from '../../src/config.js';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, launchBrowser, screenshot, watchedContext, type WatchedContext } from '../support/browser.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';
import { startDashboardApp } from '../support/dashboard.js';
import { createTestInvitation } from '../support/factories.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';
import type { TestApp } from '../support/test-app.js';

// The page's clipboard, read back after "Copy link" (the project compiles without the DOM library).
declare const navigator: { clipboard: { readText(): Promise<string> } };

let database: TestDatabase;
let browser: Browser;

// One database and browser; each describe starts the app it needs on them (with or without a mail server).
useTestDatabase((created) => (database = created));
beforeAll(async () => {
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
});

const path = (page: Page) => new URL(page.url()).pathname;

/** Chooses a password on an invitation or reset page and waits for the code list. */
async function choosePassword(page: Page, labels: [string, string], button: string, password: string): Promise<void> {
  await page.getByLabel(labels[0], { exact: true }).fill(password);
  await page.getByLabel(labels[1], { exact: true }).fill(password);
  await page.getByRole('button', { name: button }).click();
  await expect.poll(() => path(page), { timeout: 20_000 }).toBe('/codes');
}

/** Nothing left the server and the CSP was never violated, on every page the context opened. */
async function expectSelfContained(watched: WatchedContext, page: Page, app: TestApp): Promise<void> {
  expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
  expect(await watched.cspViolations(page)).toEqual([]);
}

describe('people in a browser, without a mail server', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startDashboardApp(database);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('an operator invitation becomes an owner, who invites a member by a copied link; the member has no API & webhooks and is removed', async () => {
    const account = await createAccount(database.db, { name: 'Acme Bakery', plan: 'business' });
    const invitation = await createTestInvitation(database.db, { accountId: account.id, email: 'ada@example.com', role: 'owner', siteUrl: app.origin });

    const ownerSide = await watchedContext(browser);
    await ownerSide.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.origin });
    const owner = await ownerSide.newPage();
    await owner.goto(invitation.url);
    await expect.poll(() => owner.getByRole('heading', { name: 'Join Acme Bakery' }).isVisible()).toBe(true);
    expect(await owner.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await accessibilityViolations(owner)).toEqual([]);
    await screenshot(owner, 'dashboard-invitation');
    await choosePassword(owner, ['Password', 'Confirm password'], 'Accept invitation', 'ada chooses a long password');

    await owner.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'People' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'People', exact: true }).isVisible()).toBe(true);
    await owner.getByLabel('Email').fill('bob@example.com');
    await owner.getByLabel('Role').selectOption('member');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'Invitation link for bob@example.com' }).isVisible()).toBe(true);
    await owner.getByRole('button', { name: 'Copy link' }).click();
    await expect.poll(() => owner.getByRole('button', { name: 'Copied' }).isVisible()).toBe(true);
    const copied = await owner.evaluate(() => navigator.clipboard.readText());
    expect(copied).toMatch(new RegExp(`^${app.origin}/invitations/[A-Za-z0-9_-]{43}$`));
    expect(await owner.getByRole('row', { name: /bob@example\.com/ }).textContent()).toContain('Member');
    expect(await accessibilityViolations(owner)).toEqual([]);
    await screenshot(owner, 'dashboard-people-link');

    // Bob, in a browser of his own, opens the link handed over.
    const memberSide = await watchedContext(browser);
    const member = await memberSide.newPage();
    await member.goto(copied);
    await choosePassword(member, ['Password', 'Confirm password'], 'Accept invitation', 'bob picks a passphrase');
    const navigation = await member.getByRole('navigation', { name: 'Main' }).textContent();
    expect(navigation).not.toContain('API & webhooks');
    expect(navigation).not.toContain('People');
    expect((await member.goto(`${app.origin}/api-and-webhooks`))?.status()).toBe(403);
    expect((await member.goto(`${app.origin}/people`))?.status()).toBe(403);
    await member.goto(`${app.origin}/account`);
    expect(await member.getByRole('table').textContent()).toContain('bob@example.com');
    expect(await member.textContent('main')).toMatch(/0 of 1000 codes used/);
    expect(await accessibilityViolations(member)).toEqual([]);
    await screenshot(member, 'dashboard-account');
    // The link worked once.
    expect((await member.goto(copied))?.status()).toBe(410);
    await expect.poll(() => member.getByRole('heading', { name: 'This invitation link no longer works' }).isVisible()).toBe(true);

    // Ada removes Bob after a confirmation naming him; Bob's browser is signed out.
    await owner.goto(`${app.origin}/people`);
    await owner.getByRole('row', { name: /bob@example\.com/ }).getByRole('link', { name: 'Remove' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'Remove bob@example.com?' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(owner)).toEqual([]);
    await screenshot(owner, 'dashboard-people-remove');
    await owner.getByRole('button', { name: 'Remove person' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('The person is removed');
    expect(await owner.getByRole('table').first().textContent()).not.toContain('bob@example.com');
    await member.goto(`${app.origin}/codes`);
    await expect.poll(() => path(member)).toBe('/login');

    // Ada, the only owner, cannot make herself a member: the page says why.
    await owner.getByRole('row', { name: /ada@example\.com/ }).getByRole('button', { name: 'Make member' }).click();
    await expect.poll(() => owner.getByRole('alert').textContent()).toContain('An account needs at least one owner.');

    await expectSelfContained(ownerSide, owner, app);
    await expectSelfContained(memberSide, member, app);
    await ownerSide.context.close();
    await memberSide.context.close();
  }, BROWSER_TEST_TIMEOUT);
});

describe('people in a browser, with a mail server and open sign-up', () => {
  let app: TestApp;
  let mail: MailCatcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    app = await startDashboardApp(database, { dashboard: { ...loadConfig({}).dashboard, smtpUrl: mail.url, signup: 'open', signupPlan: 'free' } });
  });
  afterAll(async () => {
    await app?.close();
    await mail?.close();
  });

  /** The link of this kind (`invitations`, `password-reset`, `signup/confirm`) in a mail to `to`, once one arrives. */
  async function linkMailedTo(to: string, kind: string): Promise<string> {
    const pattern = new RegExp(`${app.origin}/${kind}/[A-Za-z0-9_-]{43}`);
    const find = () => mail.mails.filter((m) => m.to.includes(to)).map((m) => pattern.exec(m.text)?.[0]).find(Boolean);
    await expect.poll(find, { timeout: 20_000 }).toBeDefined();
    return find()!;
  }

  it('signs up, invites by email, the mailed link works; the new person resets a forgotten password by email and is signed out elsewhere', async () => {
    const ownerSide = await watchedContext(browser);
    const owner = await ownerSide.newPage();
    await owner.goto(`${app.origin}/login`);
    await owner.getByRole('link', { name: 'Create an account' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'Create an account' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(owner)).toEqual([]);
    await screenshot(owner, 'dashboard-signup');
    await owner.getByLabel('Account name').fill('Corner Café');
    await owner.getByLabel('Email').fill('cleo@example.com');
    // With a mail server the account is made from the mailed link (the form answers every address alike), and
    // the password is chosen there, by whoever holds the link: the form has no password field.
    expect(await owner.getByLabel('Password', { exact: true }).count()).toBe(0);
    await owner.getByRole('button', { name: 'Email me the link' }).click();
    await expect.poll(() => owner.getByRole('heading', { name: 'Check your email' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(owner)).toEqual([]);
    await owner.goto(await linkMailedTo('cleo@example.com', 'signup/confirm'));
    // The name the form proposed, open to change before anything is made.
    expect(await owner.getByLabel('Account name').inputValue()).toBe('Corner Café');
    expect(await accessibilityViolations(owner)).toEqual([]);
    await choosePassword(owner, ['Password', 'Confirm password'], 'Create the account', 'cleo opens a corner cafe');

    await owner.goto(`${app.origin}/people`);
    await owner.getByLabel('Email').fill('dan@example.com');
    await owner.getByRole('button', { name: 'Send invitation' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('The invitation is on its way by email.');
    expect(await owner.getByRole('row', { name: /dan@example\.com/ }).textContent()).toContain('cleo@example.com');
    await screenshot(owner, 'dashboard-people-emailed');
    const invitation = await linkMailedTo('dan@example.com', 'invitations');
    expect(mail.mails.at(-1)!.text).toContain('Account name, as its owner typed it: "Corner Café"\nInvited by: cleo@example.com');

    const danSide = await watchedContext(browser);
    const dan = await danSide.newPage();
    await dan.goto(invitation);
    await choosePassword(dan, ['Password', 'Confirm password'], 'Accept invitation', 'dan forgets this one');

    // Dan, in another browser, forgot his password.
    const resetSide = await watchedContext(browser);
    const reset = await resetSide.newPage();
    await reset.goto(`${app.origin}/login`);
    await reset.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect.poll(() => path(reset)).toBe('/password-reset');
    expect(await accessibilityViolations(reset)).toEqual([]);
    await screenshot(reset, 'dashboard-password-reset-request');
    await reset.getByLabel('Email').fill('dan@example.com');
    await reset.getByRole('button', { name: 'Send reset link' }).click();
    await expect.poll(() => reset.getByRole('status').textContent()).toContain('If an account uses that email, we sent a link to it.');
    const resetLink = await linkMailedTo('dan@example.com', 'password-reset');
    await reset.goto(resetLink);
    await expect.poll(() => reset.getByRole('heading', { name: 'Choose a new password' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(reset)).toEqual([]);
    await screenshot(reset, 'dashboard-password-reset');
    await choosePassword(reset, ['New password', 'Confirm new password'], 'Set new password', 'dan remembers this one');

    // The session from the invitation ended with the reset.
    await dan.goto(`${app.origin}/account`);
    await expect.poll(() => path(dan)).toBe('/login');

    for (const [side, page] of [[ownerSide, owner], [danSide, dan], [resetSide, reset]] as const) await expectSelfContained(side, page, app);
    await Promise.all([ownerSide.context.close(), danSide.context.close(), resetSide.context.close()]);
  }, BROWSER_TEST_TIMEOUT);
});
