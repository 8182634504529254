import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import { LOGIN_FAILURES_PER_EMAIL } from '../../src/people/login-limit.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, startDashboardApp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { rawHttp } from '../support/raw-http.js';
import type { TestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;

useDashboardApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createPerson(database.db);
});

describe('signing in', () => {
  it('signs in with the right email and password: a session cookie that is httpOnly and SameSite=Lax, then the code list', async () => {
    const http = await dashboardHttp(app);
    const response = await http.post('/login', { email: `  ${owner.email.toUpperCase()} `, password: owner.password, next: '/codes?state=paused' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/codes?state=paused');
    const cookie = response.headers.getSetCookie().find((line) => line.startsWith('qroute_session='));
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Expires=/);
    expect(cookie).not.toMatch(/Secure/); // SITE_URL is http here; the https case is below
    expect((await http.get('/')).headers.get('location')).toBe('/codes');
  });

  it('refuses a wrong password or an unknown email with the same message, and keeps the email typed', async () => {
    for (const [email, password] of [[owner.email, 'wrong-password'], ['nobody@example.com', owner.password]] as const) {
      const http = await dashboardHttp(app);
      const response = await http.post('/login', { email, password });
      expect(response.status).toBe(401);
      const page = await response.text();
      expect(page).toContain('The email or the password is wrong.');
      expect(page).toContain(`value="${email}"`);
      expect(response.headers.getSetCookie().some((line) => line.startsWith('qroute_session='))).toBe(false);
    }
  });

  it('never sends a person elsewhere after sign-in: next must be a path on this site', async () => {
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example', 'javascript:alert(1)']) {
      const http = await dashboardHttp(app);
      const response = await http.post('/login', { email: owner.email, password: owner.password, next });
      expect(response.headers.get('location'), next).toBe('/codes');
    }
  });

  it(`limits failed sign-ins per email: after ${LOGIN_FAILURES_PER_EMAIL} failures even the right password waits (429, Retry-After)`, async () => {
    const victim = await createPerson(database.db);
    const http = await dashboardHttp(app);
    for (let i = 0; i < LOGIN_FAILURES_PER_EMAIL; i++) {
      expect((await http.post('/login', { email: victim.email, password: `guess-${i}` })).status).toBe(401);
    }
    const limited = await http.post('/login', { email: victim.email, password: victim.password });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await limited.text()).toContain('Too many failed sign-ins');
    // Another person is not held back by it.
    expect((await (await dashboardHttp(app)).post('/login', { email: owner.email, password: owner.password })).status).toBe(303);
  });

  it('holds the limit against a burst: of 20 guesses sent at once, at most the limit get a password check', async () => {
    const victim = await createPerson(database.db);
    const http = await dashboardHttp(app);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => http.post('/login', { email: victim.email, password: `burst-${i}` }).then((response) => response.status)),
    );
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(LOGIN_FAILURES_PER_EMAIL);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  });

  it('signs out: the old cookie no longer opens a page', async () => {
    const http = await dashboardHttp(app, owner);
    const stolen = http.cookie;
    expect((await http.post('/logout', {})).status).toBe(303);
    const replay = await fetch(`${app.origin}/codes`, { headers: { cookie: stolen }, redirect: 'manual' });
    expect(replay.status).toBe(303);
    expect(replay.headers.get('location')).toBe('/login?next=%2Fcodes');
  });
});

describe('CSRF', () => {
  it('refuses a state-changing request without a token, with a wrong one, or from another site (403), and accepts the right one', async () => {
    const http = await dashboardHttp(app, owner);
    expect((await http.post('/logout', {}, { csrf: false })).status).toBe(403);
    expect((await http.post('/logout', {}, { csrf: 'wrong' })).status).toBe(403);
    expect((await http.post('/logout', {}, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await http.post('/logout', {}, { headers: { 'sec-fetch-site': 'cross-site' } })).status).toBe(403);
    // Still signed in after all of those.
    expect((await http.get('/')).headers.get('location')).toBe('/codes');
    expect((await http.post('/logout', {}, { headers: { origin: app.origin } })).status).toBe(303);
  });

  it('protects the sign-in form too (login CSRF): no token, no session', async () => {
    const http = await dashboardHttp(app);
    const response = await http.post('/login', { email: owner.email, password: owner.password }, { csrf: false });
    expect(response.status).toBe(403);
    expect(response.headers.getSetCookie().some((line) => line.startsWith('qroute_session='))).toBe(false);
  });
});

describe('what pages are served with', () => {
  it('a strict CSP without inline script, no framing, no caching; hashed assets cached for a year and compressed', async () => {
    const response = await fetch(`${app.origin}/login`);
    const csp = response.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('cache-control')).toBe('no-store');
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html><html lang="en">/);
    const assets = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(4);
    for (const asset of assets) {
      expect(asset).toMatch(/^\/assets\/[a-z]+\.[A-Za-z0-9_-]{12}\.(css|js)$/);
      const file = await fetch(`${app.origin}${asset}`, { headers: { 'accept-encoding': 'br' } });
      expect(file.status).toBe(200);
      expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(file.headers.get('content-encoding')).toBe('br');
    }
    // No element of the page loads anything from another origin (a link a person follows loads nothing: the footer
    // credits the IP database at db-ip.com, as its licence asks).
    expect(page.replace(/<a [^>]*>/g, '')).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
    expect(page).toContain('<a href="https://db-ip.com">DB-IP</a>');
  });

  it('serves each asset whole in Brotli, gzip or as it is, the same bytes to requests that ask at once', async () => {
    const page = await (await fetch(`${app.origin}/login`)).text();
    const assets = [...page.matchAll(/(?:href|src)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!);
    expect(assets).toHaveLength(4);
    const get = (asset: string, encodings: string, method = 'GET') => rawHttp(app.origin, { method, path: asset, headers: { 'accept-encoding': encodings } });
    for (const asset of assets) {
      const plain = await get(asset, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
      // Compressed on the first request for each encoding: three at once must each get the whole of it.
      const [brotli, ...alsoBrotli] = await Promise.all([1, 2, 3].map(() => get(asset, 'gzip, deflate, br')));
      const [gzip, ...alsoGzip] = await Promise.all([1, 2, 3].map(() => get(asset, 'gzip')));
      for (const [response, decompress, encoding] of [[brotli!, brotliDecompressSync, 'br'], [gzip!, gunzipSync, 'gzip']] as const) {
        expect(response.headers['content-encoding']).toBe(encoding);
        expect(Number(response.headers['content-length'])).toBe(response.body.length);
        expect(response.body.length).toBeLessThan(plain.body.length * 0.6);
        expect(decompress(response.body).equals(plain.body)).toBe(true);
      }
      for (const other of alsoBrotli) expect(other.body.equals(brotli!.body)).toBe(true);
      for (const other of alsoGzip) expect(other.body.equals(gzip!.body)).toBe(true);
      const head = await get(asset, 'br', 'HEAD');
      expect(head.headers['content-length']).toBe(brotli!.headers['content-length']);
      expect(head.body.length).toBe(0);
    }
    // Our own stylesheet is served as it is in the repository.
    const appCss = assets.find((asset) => asset.startsWith('/assets/app.') && asset.endsWith('.css'))!;
    expect((await get(appCss, 'identity')).body.equals(readFileSync(path.join(PROJECT_ROOT, 'src/dashboard/shared/assets/app.css')))).toBe(true);
  });

  it('leaves paths outside the dashboard to the JSON 404 the API answers', async () => {
    const response = await fetch(`${app.origin}/no-such-thing`);
    expect(response.status).toBe(404);
    expect((await response.json()).error.code).toBe('not_found');
  });

  it('sends people who are not signed in to the sign-in page, and back afterwards', async () => {
    const response = await fetch(`${app.origin}/codes?state=paused`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/login?next=%2Fcodes%3Fstate%3Dpaused');
  });
});

describe('over https', () => {
  it('names the cookies __Host- and marks them Secure', async () => {
    const secure = await startDashboardApp(database, { siteUrl: 'https://qr.example' });
    try {
      const response = await fetch(`${secure.origin}/login`);
      const cookie = response.headers.getSetCookie().find((line) => line.startsWith('__Host-qroute_csrf='));
      expect(cookie).toMatch(/; Secure/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).not.toMatch(/Domain=/i);
    } finally {
      await secure.close();
    }
  });
});
