import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { isUnstorableText } from '../db/unstorable-text.js';
import { ApiError, errors, type FieldError, frameworkClientErrorStatus } from '../errors.js';
import { NOT_UTF8 } from './request-guards.js';
import { MAX_BODY_BYTES } from './router.js';

/** Error from express-openapi-validator: an HTTP status and one entry per problem. */
interface ValidatorError {
  status: number;
  errors?: Array<{ path?: string; message?: string }>;
}

/**
 * What a client is told to wait while the database is unreachable: long enough for a restart or failover to
 * finish, short enough that nothing waits long once it is back (the pool reconnects on the next request).
 */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Client errors from body-parser (express.json) and its decompression: http-errors with a 4xx status. */
interface BodyParserError {
  status: number;
  expose: boolean;
  type?: string;
}

/**
 * The one place errors become responses: catalogue errors as they are, validator and body-parser errors
 * mapped to their stable codes, anything else a logged 500 `internal_error` that reveals nothing.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const apiError = toApiError(error, req.method);
    if (apiError.code === 'service_unavailable') {
      // An outage, not a bug: one line per request without the stack, which says nothing here.
      const { message, code } = error as { message?: string; code?: string };
      (req.log ?? logger).warn({ err: { message, code } }, 'database unavailable');
    } else if (apiError.status >= 500) {
      (req.log ?? logger).error({ err: error }, 'request failed');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(apiError.status).json({
      error: {
        code: apiError.code,
        message: apiError.message,
        ...(apiError.details !== undefined && { details: apiError.details }),
        requestId: String(req.id),
      },
    });
  };
}

/** Paths the API does not have. */
export const notFoundHandler: RequestHandler = () => {
  throw errors.notFound('No such endpoint.');
};

function toApiError(error: unknown, method: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) return errors.serviceUnavailable(DATABASE_RETRY_AFTER_SECONDS);
  if (isUnstorableText(error)) {
    // Text the checks let through that PostgreSQL cannot store (a NUL): the request's input, never our failure.
    const problem = { message: 'contains characters that are not text (NUL or other control characters)' };
    return method === 'GET' || method === 'HEAD' || method === 'DELETE'
      ? errors.invalidQuery([{ path: '/query', ...problem }])
      : errors.invalidBody([{ path: '/body', ...problem }]);
  }
  if (isBodyParserError(error)) {
    if (error.status === 413) return errors.bodyTooLarge(MAX_BODY_BYTES / 1024);
    if (error.type === 'charset.unsupported') return errors.invalidBody([NOT_UTF8], 'The request body is not UTF-8.');
    if (error.type === 'entity.parse.failed') {
      return errors.invalidBody([{ path: '/body', message: 'is not valid JSON' }], 'The request body is not valid JSON.');
    }
    return errors.invalidBody([{ path: '/body', message: 'could not be read (unsupported charset or content encoding, or corrupt)' }]);
  }
  if (isValidatorError(error)) {
    const details = (error.errors ?? []).map(toFieldError);
    switch (error.status) {
      case 400: {
        // The validator stops at the first failing part (headers, then query, then body), so one kind is reported.
        const inPart = (part: string) => details.filter((d) => d.path.startsWith(part));
        if (inPart('/headers').length > 0) return errors.invalidHeader(inPart('/headers'));
        if (inPart('/query').length > 0) return errors.invalidQuery(inPart('/query'));
        return errors.invalidBody(details);
      }
      case 404:
        return errors.notFound('No such endpoint.');
      case 413:
        return errors.bodyTooLarge(MAX_BODY_BYTES / 1024);
      case 415: // SPEC/ARCHITECTURE: a body that is not JSON is a body problem, not a media-type one
        return errors.invalidBody([{ path: '/body', message: 'must be sent as application/json' }]);
    }
  }
  const status = frameworkClientErrorStatus(error);
  if (status !== undefined) {
    // The framework's other client errors (Express's router throws a URIError with status 400 for a path that is
    // not valid percent-encoding, as in /files/%): the request's fault, never a 500.
    if (status === 404) return errors.notFound('No such endpoint.');
    if (status === 413) return errors.bodyTooLarge(MAX_BODY_BYTES / 1024);
    if (error instanceof URIError) return errors.invalidQuery([{ path: '/path', message: 'is not valid percent-encoding' }]);
    return errors.invalidBody([{ path: '/body', message: 'could not be read' }]);
  }
  return errors.internal();
}

function toFieldError(problem: { path?: string; message?: string }): FieldError {
  // The validator reports `/body/url`, `/query/limit`; older versions used dots (`.body.url`).
  const path = (problem.path ?? '').replace(/^\./, '/').replaceAll('.', '/') || '/body';
  return { path, message: problem.message ?? 'is invalid' };
}

function isValidatorError(error: unknown): error is ValidatorError {
  return typeof error === 'object' && error !== null && typeof (error as ValidatorError).status === 'number' &&
    Array.isArray((error as ValidatorError).errors);
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null) return false;
  const { status, expose } = error as Partial<BodyParserError>;
  return expose === true && typeof status === 'number' && status >= 400 && status < 500 && !('errors' in error);
}

