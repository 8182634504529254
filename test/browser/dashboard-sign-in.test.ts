import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, BROWSER_TEST_TIMEOUT, screenshot, watchedContext } from '../support/browser.js';
import { useBrowserSuite } from '../support/browser-suite.js';
import { createPerson, signIn, type TestPerson } from '../support/dashboard.js';
import type { TestApp } from '../support/test-app.js';

let app: TestApp;
let browser: Browser;
let owner: TestPerson;

useBrowserSuite(async (suite) => {
  ({ app, browser } = suite);
  owner = await createPerson(suite.database.db, { accountName: 'Acme Bakery' });
});

describe('signing in to the dashboard in a browser', () => {
  it('shows the labelled form, refuses a wrong password, signs in, and signs out; nothing leaves the server, no CSP violation, no serious axe violation', async () => {
    const watched = await watchedContext(browser);
    const page = await watched.newPage();
    await page.goto(`${app.origin}/codes`);
    // Not signed in: the sign-in page, which brings the person back to where they were going.
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in' }).isVisible()).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    await screenshot(page, 'dashboard-sign-in');

    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('The email or the password is wrong.');

    await signIn(page, app, owner);
    await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('API & webhooks');
    expect(await page.getByRole('navigation', { name: 'Main' }).textContent()).toContain('Acme Bakery');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');
    await page.goto(`${app.origin}/codes`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/login');

    expect(watched.requests.filter((url) => !url.startsWith(app.origin))).toEqual([]);
    expect(await watched.cspViolations(page)).toEqual([]);
    await watched.context.close();
  }, BROWSER_TEST_TIMEOUT);
});
