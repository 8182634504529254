import { sql } from 'kysely';
import type { Logger } from 'pino';
import type { DatabaseTimeouts } from './database.js';
import type { Database } from './schema/index.js';

/**
 * The server-side timeouts for connections that cannot carry them as startup options: through a transaction-mode
 * pooler (PgBouncer 1.18 refuses the `options` startup parameter, and `ignore_startup_parameters = options` would
 * drop them without a word). They become the role's own settings in this database (`ALTER ROLE … IN DATABASE …
 * SET`), which PostgreSQL applies to every session the role opens there, the pooler's server connections included,
 * and which streaming replicas receive with the catalog. A session started with `options` (a direct connection)
 * still overrides them.
 *
 * Run over the direct connection (DATABASE_DIRECT_URL), as the role the pooler logs in as. Changes nothing when the
 * role has them already, so instances starting together do not rewrite the catalog in turn; instances started
 * with different DATABASE_*_TIMEOUT_MS settings would overwrite each other's, which `checkPooledTimeouts` reports.
 */
export async function applyRoleTimeouts(direct: Database, timeouts: DatabaseTimeouts): Promise<void> {
  // One process at a time: two instances starting together both found nothing and both inserted the role's
  // settings row, and the second failed on pg_db_role_setting's unique index.
  await direct.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtextextended('qroute:role-timeouts', 0))`.execute(trx);
    await applyUnlocked(trx, roleSettings(timeouts));
  });
}

async function applyUnlocked(direct: Database, settings: Array<[string, string]>): Promise<void> {
  const { rows } = await sql<{ setting: string }>`
    select unnest(s.setconfig) as setting
    from pg_db_role_setting s
    where s.setrole = (select oid from pg_roles where rolname = current_user)
      and s.setdatabase = (select oid from pg_database where datname = current_database())`.execute(direct);
  const present = new Set(rows.map((row) => row.setting));
  for (const [name, value] of settings) {
    if (present.has(`${name}=${value}`)) continue;
    // ALTER ROLE takes no parameters; the name and value are ours (a fixed name, an integer), the role and
    // database names are quoted by format().
    await sql`
      do $$ begin
        execute format('alter role %I in database %I set ${sql.raw(name)} = %s', current_user, current_database(), ${sql.raw(`'${value}'`)});
      end $$`.execute(direct);
  }
}

/**
 * Reads the timeouts a pooled connection's server session has, and warns when they are not the configured ones:
 * server connections the pooler opened before applyRoleTimeouts keep their old settings until the pooler closes
 * them (PgBouncer: `server_lifetime`, or `RECONNECT` on its console), and another instance may have set others.
 */
export async function checkPooledTimeouts(pooled: Database, timeouts: DatabaseTimeouts, logger: Logger): Promise<void> {
  const { rows } = await sql<{ name: string; setting: string }>`
    select name, setting from pg_settings where name in ('statement_timeout', 'idle_in_transaction_session_timeout')`.execute(pooled);
  const found = Object.fromEntries(rows.map((row) => [row.name, row.setting]));
  const differing = roleSettings(timeouts).filter(([name, value]) => found[name] !== value);
  if (differing.length > 0) {
    logger.warn(
      { expected: Object.fromEntries(differing), found },
      'a pooled connection has other timeouts than DATABASE_*_TIMEOUT_MS: server connections the pooler opened earlier keep theirs until it ' +
        'closes them (PgBouncer: server_lifetime, or RECONNECT on its console), or another instance runs with other settings',
    );
  }
}

/** Milliseconds, as pg_settings shows them for these two. */
function roleSettings(timeouts: DatabaseTimeouts): Array<[string, string]> {
  return [
    ['statement_timeout', String(timeouts.statementMs)],
    ['idle_in_transaction_session_timeout', String(timeouts.idleInTransactionMs)],
  ];
}
