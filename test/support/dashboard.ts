import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { createAccount } from '../../src/accounts/account-service.js';
import type { PlanName } from '../../src/accounts/plans.js';
import type { Config } from '../../src/config.js';
import type { Database } from '../../src/db/schema/index.js';
import type { UserRole } from '../../src/db/schema/people.js';
import { freePort } from '../../src/net.js';
import { createUser } from '../../src/people/users.js';
import type { TestDatabase } from './database.js';
import { startTestApp, type TestApp, type TestAppTuning, useTestApp } from './test-app.js';

/**
 * The app with SITE_URL equal to the origin the test browses (http://127.0.0.1:<port>), so links the dashboard
 * makes (short URLs, invitations, redirects after sign-in) lead back to it.
 */
export async function startDashboardApp(
  database: TestDatabase,
  overrides: Partial<Config> = {},
  tuning: TestAppTuning = {},
): Promise<TestApp> {
  const port = await freePort();
  return startTestApp(database, { port, siteUrl: `http://127.0.0.1:${port}`, ...overrides }, tuning);
}

export interface TestPerson {
  accountId: string;
  userId: string;
  email: string;
  password: string;
  role: UserRole;
}

/** A person who can sign in: in a new account (on `plan`, Business by default) or in `accountId`'s. */
export async function createPerson(
  db: Database,
  options: { accountId?: string; role?: UserRole; plan?: PlanName; email?: string; accountName?: string } = {},
): Promise<TestPerson> {
  const accountId = options.accountId ?? (await createAccount(db, { name: options.accountName ?? 'Test account', plan: options.plan ?? 'business' })).id;
  const email = options.email ?? `person-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(9).toString('base64url')}`;
  const role = options.role ?? 'owner';
  const user = await createUser(db, { accountId, email, role, password });
  return { accountId, userId: user.id, email, password, role };
}

/** Signs in through the form, as a person would, and waits for the code list. */
export async function signIn(page: Page, app: Pick<TestApp, 'origin'>, person: Pick<TestPerson, 'email' | 'password'>): Promise<void> {
  await page.goto(`${app.origin}/login`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect.poll(() => new URL(page.url()).pathname, { timeout: 20_000 }).toBe('/codes');
}

/**
 * A signed-in HTTP client without a browser, for what is quicker to check at the HTTP level (access to another
 * account's pages, CSRF refusals): it signs in through the form and keeps the cookies.
 */
export interface DashboardHttp {
  cookie: string;
  /** The CSRF token the dashboard put in the last page fetched. */
  csrfToken: string;
  get(path: string): Promise<Response>;
  /** A form post; `csrf: false` leaves the token out, `csrf: 'wrong'` sends a wrong one. */
  post(path: string, fields: Record<string, string>, options?: { csrf?: boolean | 'wrong'; headers?: Record<string, string> }): Promise<Response>;
}

export async function dashboardHttp(app: Pick<TestApp, 'origin'>, person?: Pick<TestPerson, 'email' | 'password'>): Promise<DashboardHttp> {
  const jar = new Map<string, string>();
  const client: DashboardHttp = {
    cookie: '',
    csrfToken: '',
    async get(path) {
      const response = await fetch(`${app.origin}${path}`, { headers: { cookie: cookieHeader(jar) }, redirect: 'manual' });
      keepCookies(jar, response);
      const text = await response.clone().text();
      const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
      if (token) client.csrfToken = token;
      return response;
    },
    async post(path, fields, options = {}) {
      const body = new URLSearchParams(fields);
      if (options.csrf !== false) body.set('_csrf', options.csrf === 'wrong' ? 'x'.repeat(client.csrfToken.length) : client.csrfToken);
      const response = await fetch(`${app.origin}${path}`, {
        method: 'POST',
        headers: { cookie: cookieHeader(jar), 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
        body,
        redirect: 'manual',
      });
      keepCookies(jar, response);
      return response;
    },
  };
  await client.get('/login');
  if (person) {
    const response = await client.post('/login', { email: person.email, password: person.password });
    expect(response.status, 'sign-in').toBe(303);
    await client.get('/codes');
  }
  Object.defineProperty(client, 'cookie', { get: () => cookieHeader(jar) });
  return client;
}

function cookieHeader(jar: Map<string, string>): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}

function keepCookies(jar: Map<string, string>, response: Response): void {
  for (const line of response.headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    if (attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === '') jar.delete(name);
    else jar.set(name, value);
  }
}

/** useTestApp with the dashboard's app (startDashboardApp): the file's own database and one app browsed at its origin. */
export function useDashboardApp(
  ready: Parameters<typeof useTestApp>[0],
  overrides: Parameters<typeof useTestApp>[1] = {},
  tuning: TestAppTuning = {},
): void {
  useTestApp(ready, overrides, { tuning, start: startDashboardApp });
}
