import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../../db/unavailable.js';
import { isUnstorableText } from '../../db/unstorable-text.js';
import { ApiError, frameworkClientErrorStatus } from '../../errors.js';
import { ErrorPage } from './error-page.js';
import { isHtmx, type PageContext } from './context.js';
import { sendPage } from './render.js';
import { render } from 'preact-render-to-string';

/** A failure the person should see as a page with a title and a sentence (not a stack, never JSON). */
export class DashboardError extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    readonly sentence: string,
  ) {
    super(title);
  }
}

export const dashboardNotFound: RequestHandler = () => {
  throw new DashboardError(404, 'Page not found', 'There is nothing here, or it belongs to another account.');
};

/**
 * Errors in dashboard routes become HTML: a whole page, or for htmx a message swapped into <main>. Services'
 * catalogue errors keep their status (a code of another account is a 404 here too); the framework's own 4xx
 * (body-parser, a path that is not valid percent-encoding) keep theirs; a database outage is a 503 that says to try
 * again; anything else is logged once and shown as a 500 without internals.
 */
export function dashboardErrorHandler(logger: Logger, fallback: (res: Parameters<RequestHandler>[1]) => PageContext): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const shown = toDashboardError(error);
    if (shown.status >= 500 && !isDatabaseUnavailable(error)) (req.log ?? logger).error({ err: error }, 'dashboard request failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const context = res.locals.dashboard ?? fallback(res);
    if (shown.status === 503) res.setHeader('Retry-After', '5');
    if (isHtmx(req)) {
      res.setHeader('HX-Retarget', '#main');
      res.setHeader('HX-Reswap', 'innerHTML');
      res.status(shown.status).type('html').send(render(
        <section role="alert">
          <h1>{shown.title}</h1>
          <p>{shown.sentence}</p>
        </section>,
      ));
      return;
    }
    sendPage(res, <ErrorPage context={context} title={shown.title} message={shown.sentence} />, shown.status);
  };
}

function toDashboardError(error: unknown): DashboardError {
  if (error instanceof DashboardError) return error;
  if (isDatabaseUnavailable(error)) {
    return new DashboardError(503, 'The service is briefly unavailable', 'Its database is not answering. Try again in a few seconds.');
  }
  if (error instanceof ApiError) {
    if (error.status === 404) return new DashboardError(404, 'Not found', 'There is nothing here, or it belongs to another account.');
    if (error.status < 500) return new DashboardError(error.status, 'That did not work', error.message);
  }
  if (isUnstorableText(error)) return notText();
  const framework = frameworkClientError(error);
  if (framework !== undefined) return framework;
  return new DashboardError(500, 'Something went wrong', 'It was logged on our side. Try again, and tell your operator if it keeps happening.');
}

/** A form field or address holding characters that are not text (NUL, other control characters, U+FFFF). */
export function notText(): DashboardError {
  return new DashboardError(400, 'That text cannot be used', 'A field holds characters that are not text (such as control characters). Remove them and try again.');
}

/** body-parser's http-errors say what went wrong in `type`. */
interface FrameworkError {
  type?: unknown;
}

/**
 * Any error the framework marks as the client's (see frameworkClientErrorStatus), shown with that status
 * and a sentence for the kinds a person can act on. Never a 500: the request was at fault, not the server.
 */
function frameworkClientError(error: unknown): DashboardError | undefined {
  const status = frameworkClientErrorStatus(error);
  if (status === undefined) return undefined;
  const { type } = error as FrameworkError;
  if (type === 'entity.too.large') return new DashboardError(413, 'Too much data', 'The form sent more than the dashboard accepts.');
  if (type === 'parameters.too.many') return new DashboardError(413, 'Too many fields', 'The form sent more fields than the dashboard accepts.');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') {
    return new DashboardError(415, 'The form could not be read', 'It was sent in a character set or compression the dashboard does not read (forms are UTF-8). Reload the page and try again.');
  }
  if (error instanceof URIError) {
    return new DashboardError(400, 'This address is not valid', 'Part of it is not valid percent-encoding. Check the link, or start again from the dashboard.');
  }
  if (status === 404) return new DashboardError(404, 'Page not found', 'There is nothing here, or it belongs to another account.');
  return new DashboardError(status, 'The request could not be read', 'The browser sent something the dashboard cannot use. Reload the page and try again.');
}
