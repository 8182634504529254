/**
 * Whether an error means "the database cannot be reached or cannot answer now" (a retry later may succeed),
 * as opposed to a bug or a refused statement. The API answers the former with 503 and `Retry-After`, so
 * clients and load balancers back off and retry instead of reporting a server bug.
 */

/** Socket errors of a connection that could not be made or was lost (node:net codes pg passes through). */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * SQLSTATEs that PostgreSQL sends when it will not run anything now: 57P01 admin_shutdown (pg_ctl stop),
 * 57P02 crash_shutdown, 57P03 cannot_connect_now (starting up, shutting down, recovering), 57P05
 * idle_session_timeout (the session was closed), 57014 query_canceled (our statement_timeout: a database too slow
 * to answer in time), 58030 io_error (the storage under it failing).
 */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '57P05', '57014', '58030']);

/**
 * Classes matched by prefix. 08 connection exceptions. 53 insufficient resources: 53100 disk_full, 53200
 * out_of_memory, 53300 too_many_connections, 53400 configuration_limit_exceeded (max_locks_per_transaction and
 * the like): the statement was fine and the same one succeeds once space, memory or a slot is free, so it must
 * never be taken for bad data (an import would fail valid rows for good, a scan batch would be split and dropped).
 */
const SQLSTATE_CLASSES = /^(08|53)[0-9A-Z]{3}$/;

/** Messages pg and pg-pool use for the same situations; they carry no code. */
const MESSAGES = [
  'Connection terminated', // covers "…unexpectedly" and "…due to connection timeout"
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Query read timeout', // pg's own query_timeout, should a pool be configured with it
];

/** Deep enough for Kysely's and pg-pool's wrappers; bounded so a cyclic `cause` cannot loop. */
const MAX_DEPTH = 5;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const { code, message, cause, errors } = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === 'string') {
    if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || SQLSTATE_CLASSES.test(code)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((known) => message.startsWith(known))) return true;
  // Node's connect reports every address it tried (::1 and 127.0.0.1 for localhost) in an AggregateError.
  if (Array.isArray(errors) && errors.some((each) => isDatabaseUnavailable(each, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
