import { createHash } from 'node:crypto';
import { CompiledQuery } from 'kysely';
import { executePrepared } from './database.js';
import type { Database } from './schema/index.js';

/**
 * A fixed hot statement kept in PostgreSQL as a PL/pgSQL function, so that its plan is cached by each server
 * session, however the client reaches it. A named prepared statement does that only on a connection of its own:
 * through a transaction-mode pooler (PgBouncer) consecutive statements may land on different server sessions, so
 * the statement would be planned on every call. Measured for the scan batch (`npm run bench:profile`, 100
 * connections, unnamed statement against a named one): planning took 1.1 ms of a batch's 2.7 ms, PostgreSQL's CPU
 * per scan went from 46 to 88 µs, and redirects per second fell by a fifth.
 *
 * The function's name carries a hash of its text, so instances of two versions running side by side (a rolling
 * upgrade) each call their own, and a changed statement can never meet an old body. It is created the first time a
 * call finds it missing (no start-up step that a database outage could block), by whichever instance gets there
 * first.
 */
export interface StatementFunction {
  /** `qroute_<purpose>_<hash of the definition>`. */
  readonly name: string;
  /** The CREATE FUNCTION statement. */
  readonly definition: string;
  /** What the caller runs: `select <name>($1, …) as <column>`. */
  readonly call: string;
}

/**
 * `text` is the statement as a prepared statement would run it: its `$1`, `$2` … are the function's parameters of
 * `parameterTypes`, and its rows are returned as `returns` (PL/pgSQL's `return query`): `setof void` for a
 * statement whose one column is a void (pg_notify), `setof <type>` for a one-column result, read as `column`.
 */
export function statementFunction(options: { purpose: string; parameterTypes: string[]; returns: string; column: string; text: string }): StatementFunction {
  const body = `begin\n  return query ${options.text.trim()};\nend`;
  const signature = `(${options.parameterTypes.join(', ')}) returns ${options.returns} language plpgsql volatile as $qroute_fn$\n${body}\n$qroute_fn$`;
  const hash = createHash('sha256').update(signature).digest('hex').slice(0, 12);
  const name = `qroute_${options.purpose}_${hash}`;
  const placeholders = options.parameterTypes.map((_, index) => `$${index + 1}`).join(', ');
  return { name, definition: `create function ${name}${signature}`, call: `select ${name}(${placeholders}) as ${options.column}` };
}

/** undefined_function: the function is not there yet (a new version's first call). */
const UNDEFINED_FUNCTION = '42883';
/** Another instance created it at the same moment: duplicate_function, or the catalog's unique index. */
const CREATED_ALONGSIDE = new Set(['42723', '23505']);

/** Calls the function, creating it first when this database does not have it yet. */
export async function callStatementFunction<Row>(db: Database, fn: StatementFunction, values: unknown[]): Promise<Row[]> {
  try {
    return await executePrepared<Row>(db, { name: fn.name, text: fn.call }, values);
  } catch (error) {
    if (codeOf(error) !== UNDEFINED_FUNCTION) throw error;
  }
  try {
    await db.executeQuery(CompiledQuery.raw(fn.definition));
  } catch (error) {
    if (!CREATED_ALONGSIDE.has(codeOf(error) ?? '')) throw error;
  }
  return executePrepared<Row>(db, { name: fn.name, text: fn.call }, values);
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
