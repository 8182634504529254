import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type Binaries, canReach, loadBinaries, postgresUser, type RunAs } from './embedded-postgres-process.js';

/**
 * Where the embedded PostgreSQL of a DATA_DIR runs from. As root, PostgreSQL runs as the `postgres` user, which must
 * be able to open its binaries and its cluster; a clone in root's home (`/root`, mode 0700) lets it reach neither.
 * Then both are kept under REACHABLE_PLACE instead, "as they are": nothing of root's is opened up (no chmod of /root).
 * - The binaries: hard links of the `@embedded-postgres/<platform>` package's files (copies across file systems)
 *   in `<place>/embedded-postgres/<version>/`, made once per version and shared by every clone.
 * - The cluster: in `<place>/clusters/<name>-<random>/pg`, with `<DATA_DIR>/pg` a symbolic link to it, so root's
 *   tools (backup, the CLI, the tests) find it where they always did. A new name each time, never derived from
 *   DATA_DIR: a DATA_DIR deleted to start afresh must not find its old cluster again.
 * A cluster already in a DATA_DIR stays there; a DATA_DIR the user can reach keeps its cluster, as before.
 */
export const REACHABLE_PLACE = '/var/lib/qroute';

export interface EmbeddedPostgresPlace {
  binaries: Binaries;
  /** The user PostgreSQL runs as: empty when this process is not root (it runs as us). */
  runAs: RunAs;
  /** The cluster's directory as PostgreSQL is given it: a real path (no link to follow) its user can reach. */
  pgData: string;
  /** pgData's parent, which PostgreSQL's user owns: its log and initdb's password file go there. */
  home: string;
  /** What is kept under the reachable place instead (movedNote says it in words); empty when nothing. */
  moved: { binaries?: { from: string; to: string }; cluster?: string };
}

/** The log line on start when anything was moved: where to find the database's files. */
export function movedNote(dataDir: string, moved: EmbeddedPostgresPlace['moved']): string {
  const unreachable = [moved.cluster && dataDir, moved.binaries?.from].filter(Boolean).join(' or ');
  const places = [
    moved.cluster && `its cluster is in ${moved.cluster} (${path.join(dataDir, 'pg')} links there)`,
    moved.binaries && `its binaries in ${moved.binaries.to}`,
  ].filter(Boolean).join(' and ');
  return `embedded PostgreSQL runs as the postgres user, which cannot reach ${unreachable}: ${places}`;
}

/**
 * Finds (and, for a new cluster, makes) the places PostgreSQL runs from for `dataDir`, which it creates. Call it only
 * once a cluster is there or may be created. `reachablePlace` is REACHABLE_PLACE but in tests.
 */
export async function placeEmbeddedPostgres(relativeDataDir: string, reachablePlace = REACHABLE_PLACE): Promise<EmbeddedPostgresPlace> {
  // Absolute: PostgreSQL's user checks and opens it from our working directory, which it may not be able to enter.
  const dataDir = path.resolve(relativeDataDir);
  const packaged = await loadBinaries();
  await fs.mkdir(dataDir, { recursive: true });
  const link = path.join(dataDir, 'pg');
  const runAs = await postgresUser();
  if (runAs.uid === undefined) return { binaries: packaged, runAs, pgData: link, home: dataDir, moved: {} };
  const ids = { uid: runAs.uid, gid: runAs.gid ?? runAs.uid };

  const moved: EmbeddedPostgresPlace['moved'] = {};
  let binaries = packaged;
  if (!(await canRun(packaged, ids))) {
    binaries = await reachableBinaries(packaged, path.join(reachablePlace, 'embedded-postgres'));
    moved.binaries = { from: path.dirname(path.dirname(packaged.initdb)), to: path.dirname(path.dirname(binaries.initdb)) };
  }

  const linked = await fs.lstat(link).then((stats) => stats.isSymbolicLink(), () => false);
  if (linked) {
    const pgData = await fs.realpath(link).catch(() => {
      throw new Error(`${link} is a link to the embedded PostgreSQL's cluster, but what it points to is gone. Nothing was deleted. ` +
        'Restore that directory, or move the link aside to start with a new, empty database.');
    });
    const ours = path.dirname(path.dirname(pgData)) === (await fs.realpath(path.join(reachablePlace, 'clusters')).catch(() => undefined));
    if (ours) return { binaries, runAs, pgData, home: path.dirname(pgData), moved: { ...moved, cluster: path.dirname(pgData) } };
    // A link of the operator's own (to another disk, say) is not ours to announce, and the folder it points into
    // need not be writable by PostgreSQL's user: its log and settings stay in DATA_DIR, as without a link.
    await fs.chown(dataDir, ids.uid, ids.gid);
    return { binaries, runAs, pgData, home: dataDir, moved };
  }
  await fs.chown(dataDir, ids.uid, ids.gid);
  if (await canReach(dataDir, ids)) return { binaries, runAs, pgData: link, home: dataDir, moved };
  if ((await fs.readdir(link).catch(() => [])).length > 0) {
    throw new Error(`PostgreSQL runs as the postgres user when qroute runs as root, and that user cannot reach the cluster in ${link}. ` +
      `Nothing was deleted. Move ${dataDir} where it can (such as ${reachablePlace}) and set DATA_DIR to it, or let it through (chmod o+x on ` +
      'the folders above it).');
  }
  const home = await newClusterHome(dataDir, path.join(reachablePlace, 'clusters'), ids);
  await fs.rm(link, { recursive: false, force: true }).catch(() => fs.rmdir(link)); // an empty directory left by an older version
  await fs.symlink(path.join(home, 'pg'), link);
  return { binaries, runAs, pgData: path.join(home, 'pg'), home, moved: { ...moved, cluster: home } };
}

async function canRun(binaries: Binaries, ids: { uid: number; gid: number }): Promise<boolean> {
  return canReach(path.dirname(binaries.initdb), ids, 'x');
}

/** `<parent>/<what DATA_DIR is called>-<random>`, owned by PostgreSQL's user and closed to everyone else. */
async function newClusterHome(dataDir: string, parent: string, ids: { uid: number; gid: number }): Promise<string> {
  await openedUpTo(parent);
  const hint = path.resolve(dataDir).split(path.sep).filter(Boolean).join('-').replace(/[^A-Za-z0-9_.-]/g, '_').slice(-40);
  // Short enough for a Unix-domain socket in it (see socketDirectoryFor in embedded-postgres.ts).
  const home = path.join(parent, `${hint || 'data'}-${randomBytes(4).toString('hex')}`);
  await fs.mkdir(home, { mode: 0o700 });
  // pg made now, empty (initdb takes an empty directory): the link to it is never left dangling, and a restore unpacks through it.
  await fs.mkdir(path.join(home, 'pg'), { mode: 0o700 });
  // For an operator looking at what is in the place: which DATA_DIR each cluster belongs to. Written before the
  // folder is handed to PostgreSQL's user, and only as a new file, so that user cannot have put a link there.
  await fs.writeFile(path.join(home, 'DATA_DIR'), `${path.resolve(dataDir)}\n`, { flag: 'wx' });
  for (const dir of [home, path.join(home, 'pg')]) await fs.chown(dir, ids.uid, ids.gid);
  return home;
}

/**
 * The package's `native/` tree (bin, lib, share) mirrored into `<parent>/<version>/`, readable by everyone: built in a
 * temporary directory and renamed into place, so processes starting at once (the tests' workers) never see half
 * of it; whoever renames first wins and the others use theirs.
 */
export async function reachableBinaries(packaged: Binaries, parent: string): Promise<Binaries> {
  const native = path.dirname(path.dirname(packaged.initdb));
  const version = await packageVersion(path.dirname(native));
  const target = path.join(parent, version);
  const inPlace = (dir: string): Binaries => ({
    initdb: path.join(dir, 'bin', path.basename(packaged.initdb)),
    pg_ctl: path.join(dir, 'bin', path.basename(packaged.pg_ctl)),
    postgres: path.join(dir, 'bin', path.basename(packaged.postgres)),
  });
  if (await fs.access(path.join(target, COMPLETE)).then(() => true, () => false)) return inPlace(target);
  await openedUpTo(parent);
  const building = `${target}.${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    await mirror(native, building);
    await fs.writeFile(path.join(building, COMPLETE), `${native}\n`, { mode: 0o644 });
    await fs.chmod(building, 0o755);
    await fs.rename(building, target).catch(async (error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    });
  } finally {
    await fs.rm(building, { recursive: true, force: true });
  }
  return inPlace(target);
}

/** Written last: a directory without it is a mirror that did not finish. */
const COMPLETE = '.complete';

async function packageVersion(packageDir: string): Promise<string> {
  const { version } = JSON.parse(await fs.readFile(path.join(packageDir, 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof version !== 'string' || !/^[0-9A-Za-z.+-]+$/.test(version)) throw new Error(`no usable version in ${packageDir}/package.json`);
  return version;
}

/**
 * Hard links where the file is already readable by everyone (no space used), else, and across file systems, a copy
 * made readable; symbolic links (the libraries' .so names) as they are.
 */
async function mirror(from: string, to: string): Promise<void> {
  await fs.mkdir(to, { mode: 0o755 });
  await fs.chmod(to, 0o755);
  for (const entry of await fs.readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await mirror(source, target);
    else if (entry.isSymbolicLink()) await fs.symlink(await fs.readlink(source), target);
    else if (entry.isFile()) {
      const { mode } = await fs.stat(source);
      const readable = (mode & 0o004) !== 0 && ((mode & 0o100) === 0 || (mode & 0o001) !== 0);
      const linked = readable && (await fs.link(source, target).then(() => true, () => false));
      if (!linked) {
        await fs.copyFile(source, target);
        await fs.chmod(target, (mode & 0o100) !== 0 ? 0o755 : 0o644);
      }
    }
  }
}

/**
 * Makes `dir` and whatever of its parents is missing, each passable by PostgreSQL's user (root's umask may be 077,
 * which would make /var/lib/qroute 0700). Folders that were there already are left as their owner set them.
 */
async function openedUpTo(dir: string): Promise<void> {
  const first = await fs.mkdir(dir, { recursive: true, mode: 0o755 });
  if (first === undefined) return;
  for (let made = dir; ; made = path.dirname(made)) {
    await fs.chmod(made, 0o755);
    if (made === first || made === path.dirname(made)) break;
  }
}
