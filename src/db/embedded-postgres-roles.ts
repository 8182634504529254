import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Logger } from 'pino';
import { type Binaries, run, type RunAs } from './embedded-postgres-process.js';
import type { EmbeddedPostgresInfo } from './embedded-postgres-settings.js';

/** The role the service connects as: owns the application's database and tables, and is not a superuser. */
export const APP_ROLE = 'qroute';
/** The superuser initdb creates; only setup (and the tests' CREATE DATABASE) connects as it. */
export const ADMIN_ROLE = 'qroute_admin';
const UPGRADE_ROLE = 'qroute_upgrade';
/** The database the service uses. */
export const APP_DATABASE = 'postgres';

export function newPassword(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Sets a new password on the cluster's superuser with the cluster stopped, in single-user mode (which needs no
 * password: it runs as the system user that owns the files), for a data directory whose postgres.json was lost.
 * Returns the settings to connect with; a cluster from before the admin role comes back in the old shape.
 */
export async function recoverSettings(binaries: Binaries, pgData: string, runAs: RunAs): Promise<EmbeddedPostgresInfo> {
  const adminPassword = newPassword();
  // One statement per line: single-user mode ends a statement at the newline. The bootstrap superuser is OID 10.
  const input = [
    `DO $$ BEGIN EXECUTE format('ALTER ROLE %I PASSWORD %L', (SELECT rolname FROM pg_authid WHERE oid = 10), '${adminPassword}'); END $$;`,
    'SELECT rolname AS bootstrap_role FROM pg_authid WHERE oid = 10;',
    '',
  ].join('\n');
  const { stdout, stderr } = await run(binaries.postgres, ['--single', '-D', pgData, APP_DATABASE], runAs, input);
  const bootstrap = /bootstrap_role = "([^"]+)"/.exec(stdout)?.[1];
  if (!bootstrap || /^(ERROR|FATAL|PANIC):/m.test(stderr)) {
    throw new Error(`could not reset the password of the cluster in ${pgData} in single-user mode: ${stderr.trim() || stdout.trim()}`);
  }
  if (bootstrap === APP_ROLE) return { port: 0, user: APP_ROLE, password: adminPassword };
  return { port: 0, user: APP_ROLE, password: newPassword(), adminUser: bootstrap, adminPassword };
}

/**
 * Brings the roles to what this version expects, with the server running: clusters made before the admin role
 * (whose superuser, made by initdb, is called qroute and owns every table) get their superuser renamed to
 * qroute_admin and a new qroute role without SUPERUSER that takes over the database and its objects.
 * Idempotent; returns the settings to write to postgres.json.
 */
export async function ensureRoles(info: EmbeddedPostgresInfo, logger: Logger): Promise<Required<EmbeddedPostgresInfo>> {
  let settings: EmbeddedPostgresInfo = info;
  if (settings.adminUser === undefined) settings = await upgradeLegacyRoles(settings, logger);
  const admin = await connect(settings.port, settings.adminUser!, settings.adminPassword!);
  try {
    const password = admin.escapeLiteral(settings.password);
    await admin.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${APP_ROLE}') THEN CREATE ROLE ${APP_ROLE}; END IF; END $$`);
    await admin.query(`ALTER ROLE ${APP_ROLE} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOBYPASSRLS PASSWORD ${password}`);
    // Owning the database makes it pg_database_owner, which owns schema public (PostgreSQL 15+): it can run
    // the migrations. Objects that an older version created as the superuser are handed over.
    await admin.query(`ALTER DATABASE ${APP_DATABASE} OWNER TO ${APP_ROLE}`);
    await admin.query(TRANSFER_PUBLIC_OBJECTS);
    await admin.query(`DROP ROLE IF EXISTS ${UPGRADE_ROLE}`);
  } finally {
    await admin.end();
  }
  return settings as Required<EmbeddedPostgresInfo>;
}

async function upgradeLegacyRoles(legacy: EmbeddedPostgresInfo, logger: Logger): Promise<EmbeddedPostgresInfo> {
  const old = await connect(legacy.port, legacy.user, legacy.password);
  const temporaryPassword = newPassword();
  try {
    const { rows } = await old.query<{ bootstrap: boolean }>('SELECT oid = 10 AS bootstrap FROM pg_roles WHERE rolname = current_user');
    if (!rows[0]?.bootstrap) throw new Error(`postgres.json names ${legacy.user} but no admin role; restore it, or delete it to have it recovered`);
    // A role cannot rename itself, and the bootstrap superuser keeps SUPERUSER forever: a second superuser,
    // for this step only, renames it out of the way of the new unprivileged qroute.
    await old.query(`DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${UPGRADE_ROLE}') THEN CREATE ROLE ${UPGRADE_ROLE} SUPERUSER; END IF; END $$`);
    await old.query(`ALTER ROLE ${UPGRADE_ROLE} LOGIN PASSWORD ${old.escapeLiteral(temporaryPassword)}`);
  } finally {
    await old.end();
  }
  const upgrader = await connect(legacy.port, UPGRADE_ROLE, temporaryPassword);
  const upgraded = { ...legacy, user: APP_ROLE, password: newPassword(), adminUser: ADMIN_ROLE, adminPassword: legacy.password };
  try {
    await upgrader.query('BEGIN');
    await upgrader.query(`ALTER ROLE ${legacy.user} RENAME TO ${ADMIN_ROLE}`);
    await upgrader.query(`ALTER ROLE ${ADMIN_ROLE} PASSWORD ${upgrader.escapeLiteral(upgraded.adminPassword)}`);
    await upgrader.query(`CREATE ROLE ${APP_ROLE} LOGIN PASSWORD ${upgrader.escapeLiteral(upgraded.password)}`);
    await upgrader.query('COMMIT');
  } finally {
    await upgrader.end();
  }
  logger.warn({ adminRole: ADMIN_ROLE, appRole: APP_ROLE }, 'embedded PostgreSQL: the service now connects as a role that is not a superuser');
  return upgraded;
}

/** Every table, view, sequence, routine and type in schema public that the app role does not own yet. */
const TRANSFER_PUBLIC_OBJECTS = `
DO $$
DECLARE r record;
BEGIN
  FOR r IN
    SELECT c.oid::regclass AS name FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
      AND c.relowner <> '${APP_ROLE}'::regrole
      -- a sequence of a serial or identity column follows its table; extension members stay
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('a', 'i', 'e'))
  LOOP
    EXECUTE format('ALTER TABLE %s OWNER TO ${APP_ROLE}', r.name);
  END LOOP;
  FOR r IN
    SELECT p.oid::regprocedure AS name FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> '${APP_ROLE}'::regrole
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO ${APP_ROLE}', r.name);
  END LOOP;
  FOR r IN
    SELECT t.oid::regtype AS name FROM pg_type t
    WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r') AND t.typowner <> '${APP_ROLE}'::regrole
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO ${APP_ROLE}', r.name);
  END LOOP;
END $$`;

async function connect(port: number, user: string, password: string): Promise<pg.Client> {
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database: APP_DATABASE });
  client.on('error', () => undefined); // a setup connection that dies fails its next query instead
  await client.connect();
  return client;
}
