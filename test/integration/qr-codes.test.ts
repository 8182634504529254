import { beforeAll, describe, expect, it } from 'vitest';
import type { TestDatabase } from '../support/database.js';
import { createTestAccount, rawRequest, type TestAccount, type TestApp, useTestApp } from '../support/test-app.js';

let database: TestDatabase;
let app: TestApp;
let owner: TestAccount;

useTestApp((started) => ({ database, app } = started));
beforeAll(async () => {
  owner = await createTestAccount(database.db, app);
});

const ISO_MS_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function createCode(account: TestAccount, body = { name: 'Poster', url: 'https://example.com/spring' }) {
  const { data, error, response } = await account.client.raw.POST('/qrcodes', { body });
  expect(error, JSON.stringify(error)).toBeUndefined();
  expect(response.status).toBe(201);
  return data!.data;
}

describe('POST /qrcodes', () => {
  it('creates a URL code with a slug, a short URL and the destination from `url`', async () => {
    const before = Date.now();
    const code = await createCode(owner, { name: '  Spring poster ', url: 'https://example.com/spring?utm=1' });
    expect(code).toMatchObject({
      name: 'Spring poster',
      type: 'URL',
      destinationUrl: 'https://example.com/spring?utm=1',
      scanCount: 0,
      active: true,
    });
    expect(code.id).toMatch(/^qr_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(code.slug).toMatch(/^[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(code.shortUrl).toBe(`https://qr.test/r/${code.slug}`);
    expect(code.createdAt).toMatch(ISO_MS_UTC);
    expect(Date.parse(code.createdAt)).toBeGreaterThanOrEqual(before - 1);
  });

  it('stores the destination in normalized form', async () => {
    const code = await createCode(owner, { name: 'n', url: 'HTTPS://Example.COM' });
    expect(code.destinationUrl).toBe('https://example.com/');
  });

  it('gives every code its own slug and id', async () => {
    const codes = await Promise.all(Array.from({ length: 10 }, () => createCode(owner)));
    expect(new Set(codes.map((c) => c.slug)).size).toBe(10);
    expect(new Set(codes.map((c) => c.id)).size).toBe(10);
  });

  it.each([
    ['a missing url', { name: 'x' }, ['/body/url']],
    ['a missing name', { url: 'https://example.com' }, ['/body/name']],
    ['an empty object', {}, ['/body/name', '/body/url']],
    ['a blank name', { name: '   ', url: 'https://example.com' }, ['/body/name']],
    ['a name over 200 characters', { name: 'x'.repeat(201), url: 'https://example.com' }, ['/body/name']],
    ['a control character in the name', { name: 'bell\u0007', url: 'https://example.com' }, ['/body/name']],
    ['a number as name', { name: 5, url: 'https://example.com' }, ['/body/name']],
    ['an ftp url', { name: 'x', url: 'ftp://example.com/file' }, ['/body/url']],
    ['a javascript: url', { name: 'x', url: 'javascript:alert(1)' }, ['/body/url']],
    ['a relative url', { name: 'x', url: '/spring' }, ['/body/url']],
    ['a url without host', { name: 'x', url: 'http://' }, ['/body/url']],
    ['a url with credentials', { name: 'x', url: 'https://user:pw@example.com/' }, ['/body/url']],
    ['a url over 2048 characters', { name: 'x', url: `https://example.com/${'a'.repeat(2040)}` }, ['/body/url']],
    ['an unknown field', { name: 'x', url: 'https://example.com', color: 'red' }, ['/body/color']],
    ['every problem at once', { name: '', url: 'mailto:a@b.c', extra: true }, ['/body/name', '/body/url', '/body/extra']],
  ])('answers 400 invalid_body for %s, listing each field problem', async (_label, body, paths) => {
    const res = await rawRequest(app, '/qrcodes', { method: 'POST', apiKey: owner.apiKey, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_body');
    const reported = new Set(res.body.error.details.map((d: { path: string }) => d.path));
    expect([...reported].sort()).toEqual([...paths].sort());
  });

  it.each([
    ['malformed JSON', '{"name": "x",', 'application/json'],
    ['a JSON string', '"just a string"', 'application/json'],
    ['a JSON array', '[{"name":"x","url":"https://example.com"}]', 'application/json'],
    ['a JSON body sent as text/plain', '{"name":"x","url":"https://example.com"}', 'text/plain'],
    ['no body at all', undefined, undefined],
  ])('answers 400 invalid_body for %s', async (_label, body, contentType) => {
    const res = await rawRequest(app, '/qrcodes', {
      method: 'POST',
      apiKey: owner.apiKey,
      body,
      headers: contentType ? { 'Content-Type': contentType } : {},
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_body');
  });

  it('answers 413 body_too_large for a body over 64 KB', async () => {
    const body = JSON.stringify({ name: 'x'.repeat(70 * 1024), url: 'https://example.com' });
    const res = await rawRequest(app, '/qrcodes', { method: 'POST', apiKey: owner.apiKey, body });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('body_too_large');
  });
});

describe('GET /qrcodes/{id}', () => {
  it('returns every field of the code', async () => {
    const created = await createCode(owner);
    const { data, response } = await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: created.id } } });
    expect(response.status).toBe(200);
    expect(data!.data).toEqual(created);
  });

  it.each(['qr_00000000000000000000000000', 'nope', 'qr_' + 'Z'.repeat(300), "1' or '1'='1", '%F0%9F%92%A9'])(
    'answers 404 not_found for an id that names no code (%s)',
    async (id) => {
      const res = await rawRequest(app, `/qrcodes/${encodeURIComponent(id)}`, { apiKey: owner.apiKey });
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    },
  );
});

describe('PATCH /qrcodes/{id}', () => {
  it('changes the destination and keeps slug and short URL', async () => {
    const created = await createCode(owner);
    const { data, response } = await owner.client.raw.PATCH('/qrcodes/{id}', {
      params: { path: { id: created.id } },
      body: { url: 'https://example.com/summer' },
    });
    expect(response.status).toBe(200);
    expect(data!.data).toEqual({ ...created, destinationUrl: 'https://example.com/summer' });
  });

  it('pauses and resumes a code, and renames it', async () => {
    const created = await createCode(owner);
    const id = created.id;
    const paused = await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: { active: false } });
    expect(paused.data!.data.active).toBe(false);
    const renamed = await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: { name: ' Renamed ' } });
    expect(renamed.data!.data).toMatchObject({ name: 'Renamed', active: false });
    const resumed = await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: { active: true } });
    expect(resumed.data!.data.active).toBe(true);
    const read = await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } });
    expect(read.data!.data).toMatchObject({ name: 'Renamed', active: true, destinationUrl: created.destinationUrl });
  });

  it.each([
    ['an empty object', {}],
    ['an unknown field', { slug: 'ABCDEFGH' }],
    ['a non-boolean active', { active: 'no' }],
    ['an invalid url', { url: 'notaurl' }],
    ['a blank name', { name: ' ' }],
  ])('answers 400 invalid_body for %s and changes nothing', async (_label, body) => {
    const created = await createCode(owner);
    const res = await rawRequest(app, `/qrcodes/${created.id}`, { method: 'PATCH', apiKey: owner.apiKey, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_body');
    const read = await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id: created.id } } });
    expect(read.data!.data).toEqual(created);
  });

  it('answers 404 not_found for an unknown id', async () => {
    const { error, response } = await owner.client.raw.PATCH('/qrcodes/{id}', {
      params: { path: { id: 'qr_00000000000000000000000000' } },
      body: { active: false },
    });
    expect(response.status).toBe(404);
    expect(error!.error.code).toBe('not_found');
  });
});

describe('DELETE /qrcodes/{id}', () => {
  it('answers 204 without a body, after which the code is gone everywhere', async () => {
    const created = await createCode(owner);
    const id = created.id;
    const deleted = await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id } } });
    expect(deleted.response.status).toBe(204);
    expect(await deleted.response.text()).toBe('');

    for (const res of [
      await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } }),
      await owner.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } }),
      await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: { active: true } }),
      await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id } } }),
    ]) {
      expect(res.response.status).toBe(404);
      expect(res.error!.error.code).toBe('not_found');
    }
    const list = await owner.client.raw.GET('/qrcodes', { params: { query: { limit: 100 } } });
    expect(list.data!.data.map((c) => c.id)).not.toContain(id);
  });

  it('never gives a deleted code’s slug to another code', async () => {
    const created = await createCode(owner);
    await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id: created.id } } });
    const reuse = database.db
      .insertInto('qr_codes')
      .values({
        id: 'qr_0000000000000000000000REUS',
        account_id: owner.accountId,
        name: 'reuse',
        slug: created.slug,
        destination_url: 'https://example.com/',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .execute();
    await expect(reuse).rejects.toThrow(/qr_codes_slug_key/);
  });
});

describe('ownership', () => {
  it('answers 404 not_found on every operation for another account’s code, and lists only own codes', async () => {
    const other = await createTestAccount(database.db, app);
    const theirs = await createCode(other);
    const id = theirs.id;
    const attempts = [
      await owner.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } }),
      await owner.client.raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: { url: 'https://evil.example/' } }),
      await owner.client.raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } }),
      await owner.client.raw.DELETE('/qrcodes/{id}', { params: { path: { id } } }),
    ];
    for (const attempt of attempts) {
      expect(attempt.response.status).toBe(404);
      expect(attempt.error!.error.code).toBe('not_found');
    }
    const mine = await owner.client.raw.GET('/qrcodes', { params: { query: { limit: 100 } } });
    expect(mine.data!.data.map((c) => c.id)).not.toContain(id);
    const still = await other.client.raw.GET('/qrcodes/{id}', { params: { path: { id } } });
    expect(still.data!.data).toEqual(theirs);
  });
});
