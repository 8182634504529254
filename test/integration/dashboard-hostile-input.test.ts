import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQrCode } from '../../src/codes/index.js';
import { loadConfig } from '../../src/config.js';
import { createDesignTemplate, setCodeTemplate } from '../../src/designs/index.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { rawHttp, type RawResponse } from '../support/raw-http.js';
import { createTestAccount, type TestApp } from '../support/test-app.js';

/**
 * Hostile input to the dashboard, files and forms answers a clear 4xx page, never a 500: control characters and
 * text XML cannot carry, broken percent-encoding, bodies body-parser refuses.
 */

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let http: DashboardHttp;

useDashboardApp((started) => ({ database, app } = started), { dashboard: { ...loadConfig({}).dashboard, signup: 'open' } });
beforeAll(async () => {
  owner = await createPerson(database.db);
  http = await dashboardHttp(app, owner);
});

/** A raw form post with the session (or the anonymous CSRF cookie) of `client`: the body exactly as given. */
function postRaw(client: DashboardHttp, path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawHttp(app.origin, {
    method: 'POST',
    path,
    headers: { cookie: client.cookie, origin: app.origin, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body,
  });
}

const csrf = (client: DashboardHttp) => `_csrf=${encodeURIComponent(client.csrfToken)}`;

function expectClientError(res: RawResponse, label: string): void {
  expect(res.status, `${label}: ${res.status} ${res.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
  expect(res.status, `${label}: ${res.status} ${res.text.slice(0, 200)}`).toBeLessThan(500);
}

describe('control characters in forms', () => {
  it('are refused with 400 on every form, signed in or not, before a sign-up counts against the address', async () => {
    const anonymous = await dashboardHttp(app);
    const login = await postRaw(anonymous, '/login', `${csrf(anonymous)}&email=a%00b@x&password=whatever`);
    expect(login.status).toBe(400);
    expect(login.text).toContain('not text');

    const signupPage = await dashboardHttp(app);
    await signupPage.get('/signup');
    const before = await database.db.selectFrom('login_failures').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    const signup = await postRaw(signupPage, '/signup', `${csrf(signupPage)}&accountName=Evil%00Corp&email=evil@example.com&password=long-enough-pw-1&confirm=long-enough-pw-1`);
    expect(signup.status).toBe(400);
    const after = await database.db.selectFrom('login_failures').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);

    await http.get('/designs');
    for (const [label, field] of [['NUL', 'a%00b'], ['U+FFFF', 'a%EF%BF%BFb'], ['escape', 'a%1Bb']] as const) {
      const res = await postRaw(http, '/designs', `${csrf(http)}&name=${field}`);
      expect(res.status, label).toBe(400);
    }
  });

  it('are refused in an upload’s fields and file name', async () => {
    await http.get('/imports');
    const csv = 'type,name,url\nURL,A,https://example.com/a\n';
    const disposition = (fileName: string) => [`form-data; name="file"; filename="${fileName}"`, `form-data; name="file"; filename*=UTF-8''${encodeURIComponent(fileName)}`];
    const named = (dispositionLine: string, extra = '') =>
      Buffer.from(`--b\r\n${extra}Content-Disposition: ${dispositionLine}\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--b--\r\n`, 'utf8');
    const bodies = [
      ...disposition('a\u0000b.csv').map((line) => named(line)),
      named(disposition('a\uffffb.csv')[1]!),
      Buffer.from(`--b\r\nContent-Disposition: form-data; name="note"\r\n\r\na\u0000b\r\n--b\r\nContent-Disposition: form-data; name="file"; filename="codes.csv"\r\n\r\n${csv}\r\n--b--\r\n`, 'utf8'),
    ];
    for (const [index, body] of bodies.entries()) {
      const res = await postRaw(http, `/imports?${csrf(http)}`, body, { 'content-type': 'multipart/form-data; boundary=b' });
      expect(res.status, `upload ${index}: ${res.text.slice(0, 200)}`).toBe(400);
    }
    const imports = await database.db.selectFrom('imports').select('file_name').where('account_id', '=', owner.accountId).execute();
    expect(imports).toEqual([]);
  });

  it('are refused in account names at sign-up, line breaks included, with the field marked', async () => {
    const client = await dashboardHttp(app);
    await client.get('/signup');
    const res = await postRaw(client, '/signup', `${csrf(client)}&accountName=${encodeURIComponent('Evil\r\nURGENT: verify at http://evil.example')}&email=urgent@example.com&password=long-enough-pw-1&confirm=long-enough-pw-1`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('control characters or line breaks');
  });
});

describe('malformed requests', () => {
  it('answer 4xx for paths that are not valid percent-encoding', async () => {
    for (const path of ['/files/%', '/invitations/%', '/password-reset/%E0%A4%A', '/codes/%', '/designs/%', '/imports/%E0%A4%A']) {
      const res = await rawHttp(app.origin, { method: 'GET', path, headers: { cookie: http.cookie } });
      expectClientError(res, path);
    }
  });

  it('answer 4xx for bodies body-parser refuses: too many fields, an unknown charset or content encoding', async () => {
    const anonymous = await dashboardHttp(app);
    const fields = Array.from({ length: 201 }, (_, i) => `f${i}=x`).join('&');
    expect((await postRaw(anonymous, '/login', `${csrf(anonymous)}&${fields}`)).status).toBe(413);
    expect((await postRaw(anonymous, '/login', `${csrf(anonymous)}&email=a@b`, { 'content-type': 'application/x-www-form-urlencoded; charset=koi8-r' })).status).toBe(415);
    expect((await postRaw(anonymous, '/login', `${csrf(anonymous)}&email=a@b`, { 'content-encoding': 'br2' })).status).toBe(415);
    expect((await postRaw(anonymous, '/login', 'garbage', { 'content-encoding': 'gzip' })).status).toBe(400);
  });
});

describe('SVG logos of a degenerate size', () => {
  it('are refused as a rejected file on both upload paths (branding and a design’s logo)', async () => {
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Logo target', design: {} });
    const code = (await createQrCode(database.db, { accountId: owner.accountId, name: 'Logo code', destinationUrl: 'https://example.com/', actor: { kind: 'user', userId: owner.userId } })).code;
    for (const svg of ['<svg xmlns="http://www.w3.org/2000/svg" width="1" height="100000000"/>', '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100000000 1"/>']) {
      for (const path of ['/account/branding/logo', `/designs/${template.id}/logo`, `/codes/${code.id}/design/logo`]) {
        await http.get(path.startsWith('/account') ? '/account/branding' : '/designs');
        const body = Buffer.from(`--b\r\nContent-Disposition: form-data; name="logo"; filename="thin.svg"\r\nContent-Type: image/svg+xml\r\n\r\n${svg}\r\n--b--\r\n`);
        const res = await postRaw(http, `${path}?${csrf(http)}`, body, { 'content-type': 'multipart/form-data; boundary=b' });
        expectClientError(res, `${path} ${svg}`);
        expect(res.text, path).toContain('too narrow to draw');
      }
    }
  });
});

describe('text an SVG cannot carry', () => {
  it('is refused in a template’s frame text, and a template saved with it before still renders every code that follows it', async () => {
    await http.get('/designs');
    const refused = await postRaw(http, '/designs', `${csrf(http)}&name=Frame&frameStyle=banner&frameText=Scan%EF%BF%BFme`);
    expect(refused.status).toBe(400);

    // As an older version stored it: straight into the row, past today's checks.
    const template = await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Old', design: { frame: { style: 'banner', text: 'Scan me' } } });
    await sql`update design_templates set design = jsonb_set(design, '{frame,text}', to_jsonb(${'Scan\uffffme'}::text)) where id = ${template.id}`.execute(database.db);
    const { code } = await createQrCode(database.db, { accountId: owner.accountId, name: 'Poster', destinationUrl: 'https://example.com/', actor: { kind: 'user', userId: owner.userId } });
    await setCodeTemplate(database.db, { accountId: owner.accountId, codeId: code.id, templateId: template.id });
    const png = await http.get(`/codes/${code.id}/download?format=png&size=512`);
    expect(png.status).toBe(200);
    const svg = await http.get(`/codes/${code.id}/qr.svg`);
    expect(svg.status).toBe(200);
    expect(await svg.text()).not.toMatch(/[\uffff\ufffe\u0000-\u0008]/);
  });

  it('is refused in API code names, as are names of only invisible characters', async () => {
    const account = await createTestAccount(database.db, app);
    for (const name of ['Scan\uffffme', '\u200b', ' \u200b\u2060 ', 'a\ud800b']) {
      const res = await rawHttp(app.origin, {
        method: 'POST',
        path: '/api/v1/qrcodes',
        headers: { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name, url: 'https://example.com/' }),
      });
      expect(res.status, JSON.stringify(name)).toBe(400);
      expect(res.json.error.code).toBe('invalid_body');
    }
  });
});
