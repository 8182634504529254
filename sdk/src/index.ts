import createFetchClient, { type Client } from 'openapi-fetch';
import type { paths } from '../../generated/v1.js';

export type { paths, components, operations } from '../../generated/v1.js';

export interface QrouteClientOptions {
  /** The API base, e.g. `https://qr.example.com/api/v1`. */
  baseUrl: string;
  apiKey: string;
  /** A fetch implementation to use instead of the global one (tests, proxies, instrumentation). */
  fetch?: typeof globalThis.fetch;
}

export type QrouteClient = Client<paths>;

/** A typed client for the qroute v1 API: every path, parameter and response is checked against the contract. */
export function createClient(options: QrouteClientOptions): QrouteClient {
  return createFetchClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    ...(options.fetch && { fetch: options.fetch }),
  });
}
