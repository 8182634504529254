import { describe, expect, it } from 'vitest';
import { createClient, QrouteError } from '../../sdk/src/index.js';

/** A fetch that records requests and answers from `respond`: injected, never global. */
function fakeFetch(respond: (request: Request) => Response | Promise<Response>) {
  const requests: Request[] = [];
  const fetch = async (input: string | URL | Request, init?: RequestInit) => {
    const request = new Request(input, init);
    requests.push(request.clone());
    return respond(request);
  };
  return { fetch: fetch as typeof globalThis.fetch, requests };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });

const code = (n: number) => ({
  id: `qr_${String(n).padStart(26, '0')}`,
  name: `Code ${n}`,
  type: 'URL',
  slug: 'ABCDEFGH',
  destinationUrl: 'https://example.com/',
  scanCount: 0,
  active: true,
  createdAt: '2026-11-22T10:00:00.000Z',
  shortUrl: 'https://qr.example.com/r/ABCDEFGH',
});

describe('createClient', () => {
  it('sends the key as a bearer token to the base URL, and returns the typed result', async () => {
    const { fetch, requests } = fakeFetch(() => json(201, { data: code(1) }));
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1/', apiKey: 'qrk_test', fetch });
    const created = await client.createQrCode({ name: 'Code 1', url: 'https://example.com/' }, { idempotencyKey: 'order-42' });
    expect(created.id).toBe(code(1).id);
    expect(requests[0]!.url).toBe('https://qr.example.com/api/v1/qrcodes');
    expect(requests[0]!.method).toBe('POST');
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer qrk_test');
    expect(requests[0]!.headers.get('idempotency-key')).toBe('order-42');
    expect(await requests[0]!.json()).toEqual({ name: 'Code 1', url: 'https://example.com/' });
  });

  it('keeps clients apart: no shared key or fetch', async () => {
    const a = fakeFetch(() => json(200, { data: [], nextCursor: null }));
    const b = fakeFetch(() => json(200, { data: [], nextCursor: null }));
    await createClient({ baseUrl: 'https://a.test/api/v1', apiKey: 'qrk_a', fetch: a.fetch }).listQrCodes();
    await createClient({ baseUrl: 'https://b.test/api/v1', apiKey: 'qrk_b', fetch: b.fetch }).listQrCodes();
    expect(a.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer qrk_a']);
    expect(b.requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer qrk_b']);
  });

  it('throws QrouteError with the stable code, details, request id, status, and the retry delay on 429', async () => {
    const { fetch } = fakeFetch(() =>
      json(429, { error: { code: 'rate_limited', message: 'Too many writes; retry after 12 seconds.', requestId: 'req-1' } }, { 'Retry-After': '12' }),
    );
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_test', fetch });
    const error = await client.updateQrCode(code(1).id, { active: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QrouteError);
    expect(error).toMatchObject({ status: 429, code: 'rate_limited', requestId: 'req-1', retryAfterSeconds: 12, details: undefined });
    expect((error as Error).message).toBe('Too many writes; retry after 12 seconds.');
  });

  it('carries validation details', async () => {
    const details = [{ path: '/body/url', message: 'must match pattern' }];
    const { fetch } = fakeFetch(() => json(400, { error: { code: 'invalid_body', message: 'The request body is invalid.', details, requestId: 'req-2' } }));
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_test', fetch });
    await expect(client.createQrCode({ name: 'x', url: 'ftp://x' })).rejects.toMatchObject({ status: 400, code: 'invalid_body', details });
  });

  it('reports an answer that is not a qroute error as unexpected_response', async () => {
    const { fetch } = fakeFetch(() => new Response('<html>Bad gateway</html>', { status: 502, headers: { 'Content-Type': 'text/html' } }));
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_test', fetch });
    await expect(client.getQrCode(code(1).id)).rejects.toMatchObject({ status: 502, code: 'unexpected_response' });
  });

  it('iterates over every code, following nextCursor until it is null', async () => {
    const all = Array.from({ length: 5 }, (_, i) => code(5 - i));
    const { fetch, requests } = fakeFetch((request) => {
      const url = new URL(request.url);
      const limit = Number(url.searchParams.get('limit'));
      const cursor = url.searchParams.get('cursor');
      const start = cursor ? all.findIndex((c) => c.id === cursor) + 1 : 0;
      const data = all.slice(start, start + limit);
      return json(200, { data, nextCursor: start + limit < all.length ? data.at(-1)!.id : null });
    });
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_test', fetch });
    const seen: string[] = [];
    for await (const c of client.listAllQrCodes({ pageSize: 2 })) seen.push(c.id);
    expect(seen).toEqual(all.map((c) => c.id));
    expect(requests.map((r) => new URL(r.url).search)).toEqual([
      '?limit=2',
      `?limit=2&cursor=${all[1]!.id}`,
      `?limit=2&cursor=${all[3]!.id}`,
    ]);
  });

  it('returns image bytes', async () => {
    const { fetch, requests } = fakeFetch(() => new Response(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), { status: 200, headers: { 'Content-Type': 'image/png' } }));
    const client = createClient({ baseUrl: 'https://qr.example.com/api/v1', apiKey: 'qrk_test', fetch });
    expect([...(await client.getQrCodeImage(code(1).id, { format: 'png', size: 256 }))]).toEqual([0x89, 0x50, 0x4e, 0x47]);
    expect(new URL(requests[0]!.url).search).toBe('?format=png&size=256');
  });
});
