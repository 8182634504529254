import pino, { type Logger } from 'pino';

/**
 * The root logger. Parts take a child (`logger.child({ part: 'api' })`); secrets are redacted wherever they
 * would appear: request headers, and any field named like a key or a secret.
 */
export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'key',
          'secret',
          'password',
          '*.key',
          '*.secret',
          '*.password',
          'connectionString',
        ],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}

/** Paths whose last segment is a secret: an invitation's or a password reset's token (src/dashboard, people). */
const SECRET_PATH = /^(\/(?:invitations|password-reset)\/)[^/?#]+/;

/** Query parameters that carry a secret: the dashboard's `_csrf` on upload actions, and anything named like one. */
const SECRET_PARAMETER = /csrf|token|secret|key|password|signature/i;

/**
 * A request URL as it may be logged: the token of an invitation or password-reset link and the values of
 * secret-looking query parameters (`?_csrf=` on uploads) are replaced, the rest kept for debugging.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, '$1[redacted]');
  if (queryAt === -1) return path;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      return equals !== -1 && SECRET_PARAMETER.test(name) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}
