import { LINK_TOKEN_PATHS } from './people/tokens.js';

/**
 * Paths whose next segment is a secret: every kind of link whose token is in its path (LINK_TOKEN_PATHS, the list
 * the links are built from), whatever the letter case (a router may match either).
 */
const SECRET_PATH = new RegExp(`^(${Object.values(LINK_TOKEN_PATHS).map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|')})[^/?#]+`, 'i');

/** A segment shaped like one of our link tokens, wherever it is: a link added without joining the list stays safe. */
const TOKEN_SHAPED_SEGMENT = /(?<=\/)[A-Za-z0-9_-]{43}(?=[/?#]|$)/g;

/** Query parameters that carry a secret: the dashboard's `_csrf` on upload actions, and anything named like one. */
const SECRET_PARAMETER = /csrf|token|secret|key|password|signature/i;

/**
 * A request URL as it may be logged: the token of a link (invitation, password reset, sign-up confirmation) and the values of
 * secret-looking query parameters (`?_csrf=` on uploads) are replaced, the rest kept for debugging.
 */
export function loggableUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const path = (queryAt === -1 ? url : url.slice(0, queryAt)).replace(SECRET_PATH, '$1[redacted]').replace(TOKEN_SHAPED_SEGMENT, '[redacted]');
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
