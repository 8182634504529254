import type { Router } from 'express';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/index.js';
import { loadConfig } from '../../src/config.js';
import { dashboardSections } from '../../src/dashboard/index.js';
import type { DashboardDependencies } from '../../src/dashboard/shared/context.js';
import { createDesignTemplate } from '../../src/designs/index.js';
import { operations } from '../support/contract.js';
import type { TestDatabase } from '../support/database.js';
import { createPerson, dashboardHttp, type DashboardHttp, type TestPerson, useDashboardApp } from '../support/dashboard.js';
import { rawHttp, type RawResponse } from '../support/raw-http.js';
import { createTestAccount, type TestAccount, type TestApp } from '../support/test-app.js';
import { createTestCode } from '../support/factories.js';

/**
 * A fuzz pass over every dashboard route (read from the routers themselves, so a new route is fuzzed without
 * editing this file) and every API operation: every form field and path parameter gets NUL, U+FFFF, a lone
 * surrogate as raw bytes (%ED%A0%80, not UTF-8), broken percent-encoding and oversized text, and every POST route
 * malformed bodies. The one assertion: no answer is a 5xx.
 */

let database: TestDatabase;
let app: TestApp;
let owner: TestPerson;
let member: TestPerson;
let http: DashboardHttp;
let account: TestAccount;
const ids: Record<string, string> = {};

useDashboardApp((started) => ({ database, app } = started), { dashboard: { ...loadConfig({}).dashboard, signup: 'open' } });
beforeAll(async () => {
  owner = await createPerson(database.db);
  member = await createPerson(database.db, { accountId: owner.accountId, role: 'member' });
  http = await dashboardHttp(app, owner);
  account = await createTestAccount(database.db, app);
  const actor = { kind: 'user' as const, userId: owner.userId };
  ids.code = (await createQrCode(database.db, { accountId: owner.accountId, name: 'Fuzzed', destinationUrl: 'https://example.com/', actor })).code.id;
  ids.template = (await createDesignTemplate(database.db, { accountId: owner.accountId, name: 'Fuzzed', design: {} })).id;
  ids.key = (await createApiKey(database.db, owner.accountId)).id;
});

/** Every route of the dashboard's routers: method and path pattern (`/codes/:id`). */
function dashboardRoutes(): Array<{ method: string; path: string }> {
  // The routers are only walked, never called: their handlers never run with these dependencies.
  const deps = { config: app.config, db: database.db, logger: pino({ level: 'silent' }), box: app.box, images: app.images } as DashboardDependencies;
  const routers: Router[] = dashboardSections.map((routes) => routes(deps));
  return routers.flatMap((router) =>
    router.stack.flatMap((layer) => {
      const route = (layer as { route?: { path: string; methods: Record<string, boolean> } }).route;
      return route ? Object.keys(route.methods).map((method) => ({ method: method.toUpperCase(), path: route.path })) : [];
    }),
  );
}

/** A path pattern with its parameters filled: the fixtures' real ids, or `hostile` for every one. */
function fill(path: string, hostile?: string): string {
  return path.replace(/:(\w+)/g, (_m, name: string) => {
    if (hostile !== undefined) return hostile;
    if (name === 'id') return path.startsWith('/designs') ? ids.template! : path.startsWith('/imports') ? 'imp_00000000000000000000000000' : ids.code!;
    if (name === 'keyId') return ids.key!;
    if (name === 'userId') return member.userId;
    if (name === 'file') return 'codes.csv';
    return 'x';
  });
}

/** Bytes as they go on the wire, percent-encoded where a form would (a raw `%` stays broken on purpose). */
const VALUES: Array<[label: string, encoded: string]> = [
  ['NUL', 'a%00b'],
  ['U+FFFF', 'a%EF%BF%BFb'],
  ['a lone surrogate as bytes', 'a%ED%A0%80b'],
  ['broken percent-encoding', '%E0%A4%A'],
];
const OVERSIZED = 'a'.repeat(70_000);

const PATH_VALUES = ['%', '%E0%A4%A', '%00', '%ED%A0%80', 'q'.repeat(3_000)];
const QUERY_NAMES = ['q', 'page', 'type', 'format', 'size', 'next', 'from', 'to', 'range', 'status', 'cursor', 'sort'];

interface Form {
  action: string;
  multipart: boolean;
  fields: Array<[name: string, value: string]>;
  files: string[];
}

/** The forms of a page: where they post, and their fields with the values the page gave them. */
function formsOf(html: string): Form[] {
  const decode = (text: string) => text.replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  return [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)].flatMap(([, attributes = '', body = '']) => {
    if (!/method="post"/i.test(attributes)) return [];
    const action = decode(/action="([^"]*)"/.exec(attributes)?.[1] ?? '');
    const fields: Array<[string, string]> = [];
    const files: string[] = [];
    for (const [tag = ''] of body.matchAll(/<(input|select|textarea)\b[^>]*>/g)) {
      const name = /name="([^"]+)"/.exec(tag)?.[1];
      if (!name) continue;
      if (/type="file"/.test(tag)) files.push(name);
      else if (!/type="(checkbox|radio|submit)"/.test(tag) || /checked/.test(tag)) fields.push([name, decode(/value="([^"]*)"/.exec(tag)?.[1] ?? 'x')]);
    }
    return [{ action, multipart: /multipart\/form-data/.test(attributes), fields, files }];
  });
}

/** Sends `requests` a few at a time; returns every answer that was a 5xx (or no answer at all). */
async function failuresOf(requests: Array<{ label: string; send: () => Promise<RawResponse> }>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < requests.length) {
      const request = requests[next++]!;
      try {
        const res = await request.send();
        if (res.status >= 500) failures.push(`${request.label}: ${res.status} ${res.text.slice(0, 120)}`);
      } catch (error) {
        failures.push(`${request.label}: ${(error as Error).message}`);
      }
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  return failures;
}

const urlencoded = (fields: Array<[string, string]>) => fields.map(([name, value]) => `${encodeURIComponent(name)}=${value}`).join('&');

function multipart(fields: Array<[string, string]>, files: Array<[field: string, name: string]>): Buffer {
  const parts = fields.map(([name, value]) => `--b\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${decodeLoosely(value)}\r\n`);
  for (const [field, name] of files) parts.push(`--b\r\nContent-Disposition: form-data; name="${field}"; filename*=UTF-8''${name}\r\nContent-Type: text/csv\r\n\r\ntype,name,url\nURL,A,https://example.com/\r\n`);
  return Buffer.concat([...parts.map((part) => Buffer.from(part, 'latin1')), Buffer.from('--b--\r\n')]);
}

/** Percent-decoding into raw bytes (as latin1 text), leaving a broken escape as it is. */
function decodeLoosely(value: string): string {
  return value.replace(/%([0-9A-Fa-f]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function post(client: DashboardHttp, action: string, body: string | Buffer, contentType = 'application/x-www-form-urlencoded', headers: Record<string, string> = {}) {
  return rawHttp(app.origin, { method: 'POST', path: action, headers: { cookie: client.cookie, origin: app.origin, 'content-type': contentType, ...headers }, body });
}

/** Forms that end the session they are sent with, or the account's other people: sent last, or not at all. */
const PUBLIC = /^\/(login|signup|password-reset|invitations)?(\/|\?|$)/;
const SESSION_ENDING = /^\/(logout|account\/sign-out-everywhere)$/;
const DESTRUCTIVE = /\/(delete|remove|revoke|cancel|rotate)(\?|$)/;

describe('a fuzz pass over the dashboard', () => {
  it('answers no 5xx on any GET route, with hostile path parameters and query values', async () => {
    const anonymous = await dashboardHttp(app);
    const routes = dashboardRoutes().filter((route) => route.method === 'GET');
    expect(routes.length).toBeGreaterThan(30);
    const requests = routes.flatMap(({ path }) => [
      ...(path.includes(':') ? PATH_VALUES.map((value) => fill(path, value)) : []),
      ...VALUES.map(([, value]) => `${fill(path)}?${QUERY_NAMES.map((name) => `${name}=${value}`).join('&')}`),
    ]).flatMap((url) =>
      // Signed out, only the public pages do more than redirect to sign-in.
      (PUBLIC.test(url) ? [http, anonymous] : [http]).map((client) => ({ label: `GET ${url.slice(0, 120)}`, send: () => rawHttp(app.origin, { method: 'GET', path: url, headers: { cookie: client.cookie } }) })),
    );
    expect(await failuresOf(requests)).toEqual([]);
  });

  it('answers no 5xx when any field of any form holds NUL, U+FFFF, a lone surrogate, broken percent-encoding or too much text', async () => {
    const anonymous = await dashboardHttp(app);
    // Every form of every page the routes show, signed in and not (sign-in, sign-up, password reset), and the
    // New code form of every type.
    const pages = dashboardRoutes().filter((route) => route.method === 'GET' && !/\.(csv|svg|zip)$|download|preview|progress|sample/.test(route.path)).map((route) => fill(route.path));
    const newCode = await (await http.get('/codes/new')).text();
    pages.push(...[...newCode.matchAll(/href="(\/codes\/new\?type=[\w-]+)"/g)].map((match) => match[1]!));
    const forms = new Map<string, { client: DashboardHttp; form: Form }>();
    for (const [client, list] of [[http, pages], [anonymous, ['/login', '/signup', '/password-reset']]] as const) {
      for (const page of list) {
        const html = await (await client.get(page)).text();
        for (const form of formsOf(html)) {
          const path = form.action.split('?')[0]!;
          if (SESSION_ENDING.test(path)) continue;
          forms.set(`${form.action.replace(/_csrf=[^&]*/, '')} ${form.fields.map(([name]) => name).join(',')}`, { client, form });
        }
      }
    }
    expect(forms.size).toBeGreaterThan(20);
    const ordered = [...forms.values()].sort((a, b) => Number(DESTRUCTIVE.test(a.form.action)) - Number(DESTRUCTIVE.test(b.form.action)));
    const requests = ordered.flatMap(({ client, form }) => {
      const fuzzed = form.fields.filter(([name]) => name !== '_csrf');
      // A form of nothing but its token still gets a field to carry the values (handlers must ignore it).
      const targets = fuzzed.length > 0 ? fuzzed.map(([name]) => name) : ['extra'];
      const base: Array<[string, string]> = form.fields.map(([name, value]) => [name, encodeURIComponent(value)]);
      const send = (label: string, fields: Array<[string, string]>, value: string) => ({
        label: `POST ${form.action.split('?')[0]} ${label}`,
        send: () =>
          form.multipart
            ? post(client, form.action, multipart(fields, form.files.map((field) => [field, `codes${value.slice(0, 20)}.csv`])), 'multipart/form-data; boundary=b')
            : post(client, form.action, urlencoded(fields)),
      });
      // Too much text once per form, in every field at once (each request costs the server its 64 KB).
      const oversized = send('every field oversized', [...base.filter(([name]) => name === '_csrf'), ...targets.map((name): [string, string] => [name, OVERSIZED])], 'big');
      // NUL and U+FFFF are refused for the whole form before any handler reads a field: one request each, every
      // field holding it. What passes that check as text (a lone surrogate's bytes decode to U+FFFD, a broken
      // escape stays literal) reaches the handlers: one field at a time, so each field's own rule is met.
      const everyField = VALUES.filter(([label]) => label === 'NUL' || label === 'U+FFFF').map(([label, value]) =>
        send(`every field ${label}`, [...base.filter(([name]) => name === '_csrf'), ...targets.map((name): [string, string] => [name, value])], value),
      );
      const eachField = targets.flatMap((target) =>
        VALUES.filter(([label]) => label !== 'NUL' && label !== 'U+FFFF').map(([label, value]) =>
          send(`${target}=${label}`, [...base.filter(([name]) => name !== target), [target, value]], value),
        ),
      );
      return [oversized, ...everyField, ...eachField];
    });
    expect(await failuresOf(requests)).toEqual([]);
  });

  it('answers no 5xx to malformed bodies on any POST route, and to hostile path parameters', async () => {
    await http.get('/codes');
    const token = `_csrf=${encodeURIComponent(http.csrfToken)}`;
    const routes = dashboardRoutes().filter((route) => route.method === 'POST' && !SESSION_ENDING.test(route.path));
    const many = Array.from({ length: 201 }, (_, i) => `f${i}=x`).join('&');
    const bodies: Array<[label: string, body: string | Buffer, contentType: string, headers?: Record<string, string>]> = [
      ['201 fields', `${token}&${many}`, 'application/x-www-form-urlencoded'],
      ['koi8-r', `${token}&name=x`, 'application/x-www-form-urlencoded; charset=koi8-r'],
      ['Content-Encoding: br2', `${token}&name=x`, 'application/x-www-form-urlencoded', { 'content-encoding': 'br2' }],
      ['gzip that is not gzip', 'garbage', 'application/x-www-form-urlencoded', { 'content-encoding': 'gzip' }],
      ['over 64 KB', `${token}&name=${OVERSIZED}`, 'application/x-www-form-urlencoded'],
      ['raw invalid UTF-8', Buffer.concat([Buffer.from(`${token}&name=a`), Buffer.from([0xff, 0xfe, 0xed, 0xa0, 0x80])]), 'application/x-www-form-urlencoded'],
      ['multipart without a boundary', '--b\r\n', 'multipart/form-data'],
      ['multipart cut off', `--b\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nname`, 'multipart/form-data; boundary=b'],
    ];
    const requests = routes
      .sort((a, b) => Number(DESTRUCTIVE.test(a.path)) - Number(DESTRUCTIVE.test(b.path)))
      .flatMap(({ path }) => [
        ...bodies.map(([label, body, contentType, headers]) => ({
          label: `POST ${path} ${label}`,
          send: () => post(http, contentType.startsWith('multipart') ? `${fill(path)}?${token}` : fill(path), body, contentType, headers),
        })),
        ...(path.includes(':') ? PATH_VALUES.map((value) => ({ label: `POST ${path} with ${value.slice(0, 20)}`, send: () => post(http, fill(path, value), `${token}&name=x`) })) : []),
      ]);
    expect(await failuresOf(requests)).toEqual([]);
  });
});

describe('a fuzz pass over the API', () => {
  it('answers no 5xx when any string field of an operation’s example body, or a path parameter, is hostile', async () => {
    const auth = { Authorization: `Bearer ${account.apiKey}`, 'Content-Type': 'application/json' };
    const real = (await createTestCode(account, { name: 'Fuzz target' })).id;
    const jsonValues: Array<[string, Buffer | string]> = [
      ['NUL', '"a\\u0000b"'],
      ['U+FFFF', '"a\\uffffb"'],
      ['a lone surrogate escape', '"a\\ud800b"'],
      ['a lone surrogate as bytes', Buffer.from([0x22, 0x61, 0xed, 0xa0, 0x80, 0x22])],
      ['only a zero width space', '"\\u200b"'],
      ['oversized', `"${OVERSIZED}"`],
    ];
    const requests = operations.flatMap((operation) => {
      const path = (value?: string) => `/api/v1${operation.template.replace(/\{[^}]+\}/g, value ?? real)}`;
      const example = operation.exampleBody === undefined ? undefined : (JSON.parse(operation.exampleBody) as Record<string, unknown>);
      const stringFields = example ? Object.entries(example).filter(([, value]) => typeof value === 'string').map(([name]) => name) : [];
      return [
        ...stringFields.flatMap((field) =>
          jsonValues.map(([label, value]) => {
            const marker = '"__FUZZ__"';
            const [before = '', after = ''] = JSON.stringify({ ...example, [field]: '__FUZZ__' }).split(marker);
            const body = Buffer.concat([Buffer.from(before), Buffer.from(value as string | Buffer), Buffer.from(after)]);
            return { label: `${operation.operationId} ${field}=${label}`, send: () => rawHttp(app.origin, { method: operation.method, path: path(), headers: auth, body }) };
          }),
        ),
        ...(operation.pathParams.length > 0
          ? PATH_VALUES.map((value) => ({ label: `${operation.operationId} path ${value.slice(0, 20)}`, send: () => rawHttp(app.origin, { method: operation.method, path: path(value), headers: auth, body: operation.exampleBody }) }))
          : []),
        ...VALUES.map(([label, value]) => ({
          label: `${operation.operationId} query ${label}`,
          send: () => rawHttp(app.origin, { method: operation.method, path: `${path()}?${operation.query.map((q) => `${q.name}=${value}`).join('&') || `x=${value}`}`, headers: auth, body: operation.exampleBody }),
        })),
      ];
    });
    expect(await failuresOf(requests)).toEqual([]);
  });
});
