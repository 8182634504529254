import type { components } from '../generated/v1.js';

export type ErrorCode = components['schemas']['ErrorCode'];
export type FieldError = components['schemas']['FieldError'];
export type ErrorDetails = NonNullable<components['schemas']['Error']['error']['details']>;

/** A setting is missing or malformed (read by config.ts, or found by a module given it): said without a stack. */
export class ConfigError extends Error {}

/**
 * An error a client is meant to see: an HTTP status, a stable code from the contract, and a message.
 * Handlers and services throw these; the error middleware renders them. Anything else is a 500.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The catalogue: every error the contract names, and nothing else. */
export const errors = {
  invalidApiKey: () =>
    new ApiError(401, 'invalid_api_key', 'Missing or invalid API key. Send "Authorization: Bearer <API key>".', undefined, {
      'WWW-Authenticate': 'Bearer',
    }),
  apiNotAvailableOnPlan: () =>
    new ApiError(403, 'api_not_available_on_plan', 'The API is available on the Business plan only.'),
  invalidBody: (details: FieldError[], message = 'The request body is invalid.') =>
    new ApiError(400, 'invalid_body', message, details),
  invalidHeader: (details: FieldError[]) => new ApiError(400, 'invalid_header', 'A request header is invalid.', details),
  invalidQuery: (details: FieldError[]) => new ApiError(400, 'invalid_query', 'The query parameters are invalid.', details),
  bodyTooLarge: (limitKb: number) => new ApiError(413, 'body_too_large', `The request body is larger than ${limitKb} KB.`),
  planLimitReached: (limit: number, used: number) =>
    new ApiError(402, 'plan_limit_reached', `The account has reached its limit of ${limit} dynamic codes.`, { limit, used }),
  notFound: (what = 'No QR code with this id.') => new ApiError(404, 'not_found', what),
  webhookNotFound: () => new ApiError(404, 'not_found', 'No webhook is set for this account.'),
  deliveryNotFound: () => new ApiError(404, 'not_found', 'No webhook delivery with this id.'),
  deliveryInProgress: () =>
    new ApiError(409, 'delivery_in_progress', 'This delivery is being attempted right now; try again in a few seconds.'),
  methodNotAllowed: (allowed: string[]) =>
    new ApiError(405, 'method_not_allowed', `This method is not allowed on this path; it allows ${allowed.join(', ')}.`, undefined, {
      Allow: allowed.join(', '),
    }),
  urlNotApplicable: (type: string) =>
    new ApiError(409, 'url_not_applicable', `A ${type} code has no destination URL to change; its content is edited in the dashboard.`),
  idempotencyKeyReused: () =>
    new ApiError(422, 'idempotency_key_reused', 'This Idempotency-Key was used with a different request body.'),
  rateLimited: (retryAfterSeconds: number) =>
    new ApiError(429, 'rate_limited', `Too many writes; retry after ${retryAfterSeconds} seconds.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  imageReadsLimited: (retryAfterSeconds: number) =>
    new ApiError(429, 'rate_limited', `Too many QR image reads; retry after ${retryAfterSeconds} seconds.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
  renderersBusy: () =>
    new ApiError(503, 'service_unavailable', 'Too many QR images are being rendered right now; retry after 1 second.', undefined, {
      'Retry-After': '1',
    }),
  internal: () => new ApiError(500, 'internal_error', 'Something went wrong on our side.'),
  serviceUnavailable: (retryAfterSeconds: number) =>
    new ApiError(503, 'service_unavailable', `The service cannot reach its database; retry after ${retryAfterSeconds} seconds.`, undefined, {
      'Retry-After': String(retryAfterSeconds),
    }),
} satisfies Record<string, (...args: never[]) => ApiError>;

/**
 * The status of an error the HTTP framework raises for a bad request, or undefined: body-parser's http-errors
 * (`expose` is true for every 4xx they make) and the router's URIError for a path that is not valid
 * percent-encoding. Only these: any other error that happens to carry a 4xx `status` (from a library deep inside a
 * handler) is a bug to log and answer 500, not the client's fault.
 */
export function frameworkClientErrorStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, statusCode, expose } = error as { status?: unknown; statusCode?: unknown; expose?: unknown };
  if (expose !== true && !(error instanceof URIError)) return undefined;
  const given = typeof status === 'number' ? status : statusCode;
  return typeof given === 'number' && Number.isInteger(given) && given >= 400 && given <= 499 ? given : undefined;
}
