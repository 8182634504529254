import type { components } from '../../generated/v1.js';

export type ErrorCode = components['schemas']['ErrorCode'];
type ErrorBody = components['schemas']['Error'];

/**
 * An answer from the API that was not a success. `code` is stable (branch on it); `message` may be reworded.
 * `code` is `unexpected_response` when the answer did not come from qroute's error handler (a proxy's 502 page).
 */
export class QrouteError extends Error {
  override readonly name = 'QrouteError';

  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'unexpected_response',
    message: string,
    /** Field problems on validation errors, `{limit, used}` on `plan_limit_reached`. */
    readonly details: ErrorBody['error']['details'] | undefined,
    /** Quote it when reporting a problem: it leads to the server's log line. */
    readonly requestId: string | undefined,
    /** On `429 rate_limited`: seconds until a write will be accepted (from `Retry-After`). */
    readonly retryAfterSeconds: number | undefined,
  ) {
    super(message);
  }

  static fromResponse(response: Response, body: unknown): QrouteError {
    const retryAfter = Number(response.headers.get('retry-after'));
    const retryAfterSeconds = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined;
    const requestId = response.headers.get('x-request-id') ?? undefined;
    if (isErrorBody(body)) {
      const { code, message, details } = body.error;
      return new QrouteError(response.status, code, message, details, body.error.requestId ?? requestId, retryAfterSeconds);
    }
    return new QrouteError(response.status, 'unexpected_response', `HTTP ${response.status} without a qroute error body`, undefined, requestId, retryAfterSeconds);
  }
}

function isErrorBody(body: unknown): body is ErrorBody {
  const error = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error?.code === 'string' && typeof error.message === 'string';
}
