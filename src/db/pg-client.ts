import pg from 'pg';
import type { Logger } from 'pino';

export interface ClientGuards {
  logger: Logger;
  /**
   * A query with no answer after this long destroys its connection (0: never). The server's statement_timeout
   * covers slow queries; this covers a server that takes connections and then never answers (a hung host, a
   * stopped process, a half-open TCP connection), which no server-side setting can.
   */
  queryTimeoutMs: number;
}

/**
 * pg.Client with the two guards every connection of ours needs, so no code path can forget them:
 *
 * - A permanent 'error' listener. pg-pool listens for errors only while a client is idle; a client that is checked
 *   out but between queries (inside a transaction, or just acquired) emits 'error' when its server goes away, and
 *   an EventEmitter 'error' with no listener kills the process. The query that was running, if any, still fails
 *   with the error, and the pool drops the broken client when it is released (`_queryable` is false).
 * - A read timeout that ends the connection, not just the wait: pg's own `query_timeout` leaves the query
 *   running on the connection, which the pool would then hand out again, still busy.
 */
export function guardedClientClass(guards: ClientGuards): typeof pg.Client {
  return class GuardedClient extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on('error', (error) => guards.logger.warn({ err: error }, 'database connection lost'));
    }

    // pg's overloads are many; only the promise form (what Kysely and our code use) gets the timer.
    override query(...args: unknown[]): any {
      const result = (super.query as (...a: unknown[]) => unknown)(...args);
      if (guards.queryTimeoutMs <= 0 || !(result instanceof Promise)) return result;
      const timer = setTimeout(() => {
        guards.logger.warn({ timeoutMs: guards.queryTimeoutMs }, 'database did not answer a query in time; dropping the connection');
        // Ending the socket fails the query ("Connection terminated unexpectedly") and marks the client broken.
        (this as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
      }, guards.queryTimeoutMs);
      timer.unref();
      return result.finally(() => clearTimeout(timer));
    }
  } as typeof pg.Client;
}
