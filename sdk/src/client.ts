import createFetchClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from '../../generated/v1.js';
import { QrouteError } from './errors.js';

export type QrCode = components['schemas']['QrCode'];
export type Scan = components['schemas']['Scan'];
export type Webhook = components['schemas']['Webhook'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookAttempt = components['schemas']['WebhookAttempt'];
export type CreateQrCodeInput = components['schemas']['CreateQrCodeRequest'];
export type UpdateQrCodeInput = components['schemas']['UpdateQrCodeRequest'];
export type QrCodeImageOptions = NonNullable<operations['getQrCodeImage']['parameters']['query']>;
export type WebhookDeliveryStatus = components['schemas']['WebhookDeliveryStatus'];

export interface QrouteClientOptions {
  /** The API base, e.g. `https://qr.example.com/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

/**
 * A client for the qroute v1 API. Every method returns the typed result or throws a `QrouteError` carrying the
 * stable error `code`. `raw` is the underlying openapi-fetch client (typed from the same contract), for reading
 * statuses and headers yourself. Each client holds its own key and settings; there is no global state.
 */
export function createClient(options: QrouteClientOptions) {
  const raw: Client<paths> = createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });

  return {
    raw,

    /** One page of codes, newest first; pass `nextCursor` back as `cursor` for the next. */
    listQrCodes: (query: { limit?: number; cursor?: string } = {}): Promise<Page<QrCode>> =>
      unwrap(raw.GET('/qrcodes', { params: { query } })),

    /** Every code of the account, newest first, fetching pages as the loop goes. */
    listAllQrCodes: (query: { pageSize?: number } = {}): AsyncGenerator<QrCode> =>
      paginate((cursor) => unwrap(raw.GET('/qrcodes', { params: { query: { limit: query.pageSize ?? 100, cursor } } }))),

    /** Creates a code. With `idempotencyKey`, a retry of the same request within 24 h returns the first answer. */
    createQrCode: async (input: CreateQrCodeInput, opts: { idempotencyKey?: string } = {}): Promise<QrCode> =>
      (
        await unwrap(
          raw.POST('/qrcodes', { body: input, params: { header: opts.idempotencyKey ? { 'Idempotency-Key': opts.idempotencyKey } : {} } }),
        )
      ).data,

    getQrCode: async (id: string): Promise<QrCode> => (await unwrap(raw.GET('/qrcodes/{id}', { params: { path: { id } } }))).data,

    /** Changes the destination (`url`), the `name`, or pauses (`active: false`) and resumes a code. */
    updateQrCode: async (id: string, changes: UpdateQrCodeInput): Promise<QrCode> =>
      (await unwrap(raw.PATCH('/qrcodes/{id}', { params: { path: { id } }, body: changes }))).data,

    deleteQrCode: async (id: string): Promise<void> => {
      await unwrap(raw.DELETE('/qrcodes/{id}', { params: { path: { id } } }));
    },

    /** The last 1000 scans, newest first, and the lifetime `total`. */
    listQrCodeScans: (id: string): Promise<{ total: number; data: Scan[] }> =>
      unwrap(raw.GET('/qrcodes/{id}/scans', { params: { path: { id } } })),

    /** The printable image (SVG text or PNG bytes). */
    getQrCodeImage: async (id: string, query: QrCodeImageOptions = {}): Promise<Uint8Array> =>
      new Uint8Array(await unwrap(raw.GET('/qrcodes/{id}/image', { params: { path: { id }, query }, parseAs: 'arrayBuffer' }))),

    getWebhook: async (): Promise<Webhook> => (await unwrap(raw.GET('/webhook'))).data,

    listWebhookDeliveries: (query: { status?: WebhookDeliveryStatus; limit?: number; cursor?: string } = {}): Promise<Page<WebhookDelivery>> =>
      unwrap(raw.GET('/webhook/deliveries', { params: { query } })),

    listAllWebhookDeliveries: (query: { status?: WebhookDeliveryStatus; pageSize?: number } = {}): AsyncGenerator<WebhookDelivery> =>
      paginate((cursor) =>
        unwrap(raw.GET('/webhook/deliveries', { params: { query: { status: query.status, limit: query.pageSize ?? 100, cursor } } })),
      ),

    getWebhookDelivery: (deliveryId: string): Promise<{ data: WebhookDelivery; attempts: WebhookAttempt[] }> =>
      unwrap(raw.GET('/webhook/deliveries/{deliveryId}', { params: { path: { deliveryId } } })),

    /** Queues the delivery again (same `webhook-id`, same bytes); a worker sends it within moments. */
    redeliverWebhookDelivery: async (deliveryId: string): Promise<WebhookDelivery> =>
      (await unwrap(raw.POST('/webhook/deliveries/{deliveryId}/redeliver', { params: { path: { deliveryId } } }))).data,
  };
}

export type QrouteClient = ReturnType<typeof createClient>;

async function unwrap<T>(request: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await request;
  if (!response.ok) throw QrouteError.fromResponse(response, error);
  return data as T;
}

async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.data;
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
}
