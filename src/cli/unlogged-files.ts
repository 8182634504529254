import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The files of unlogged relations, which a base backup leaves out as pg_basebackup does (basebackup.c, sendDir): in
 * a database directory, every fork of a relation that has an init fork (`<number>_init`), except the init fork
 * itself. A restored cluster rebuilds each unlogged relation from its init fork (empty) at its first start, so
 * nothing else of it would ever be read; for scan_visitors it is the day's visitor hashes, which must not outlive
 * the day in an archive (docs/operating/data-safety.md, "Backups").
 */

/** A relation's file: number, fork (none for the main fork), segment (as PostgreSQL's parse_filename_for_nontemp_relation reads it). */
const RELATION_FILE = /^(\d+)(?:_(fsm|vm|init))?(?:\.\d+)?$/;
const INIT_FORK = /^(\d+)_init$/;

/** The numbers of the relations with an init fork among one database directory's file names. */
export function unloggedRelations(names: readonly string[]): string[] {
  return names.flatMap((name) => INIT_FORK.exec(name)?.[1] ?? []);
}

/** Of one database directory's file names, those a backup leaves out: the unlogged relations' forks but the init fork. */
export function unloggedForks(names: readonly string[]): string[] {
  const unlogged = new Set(unloggedRelations(names));
  return names.filter((name) => {
    const parts = RELATION_FILE.exec(name);
    return parts !== null && parts[2] !== 'init' && unlogged.has(parts[1]!);
  });
}

/**
 * tar --exclude patterns for an unlogged relation's files in `dir` but its init fork: its forks, and their segments
 * yet to come (a relation may grow past 1 GB while the copy runs).
 */
export function unloggedRelationPatterns(dir: string, relation: string): string[] {
  return ['', '_fsm', '_vm'].flatMap((fork) => [`${dir}/${relation}${fork}`, `${dir}/${relation}${fork}.*`]);
}

/**
 * The cluster's database directories, relative to it: base/<database oid>, and in each tablespace
 * pg_tblspc/<tablespace oid>/PG_<version>_<catalog version>/<database oid>. (global/ holds shared catalogs only,
 * never an unlogged relation, and pg_basebackup does not look there either.)
 */
export async function databaseDirectories(pgData: string): Promise<string[]> {
  const subdirectories = async (dir: string, name: RegExp) =>
    (await fs.readdir(path.join(pgData, dir)).catch(() => [] as string[])).filter((entry) => name.test(entry)).map((entry) => `${dir}/${entry}`);
  const versions = (await Promise.all((await subdirectories('pg_tblspc', /^\d+$/)).map((tablespace) => subdirectories(tablespace, /^PG_/)))).flat();
  return (await Promise.all(['base', ...versions].map((dir) => subdirectories(dir, /^\d+$/)))).flat();
}

/** Archive member names (`pg/base/5/16400`) in database directories that a backup leaves out. */
export function unloggedMembers(members: readonly string[], clusterDir = 'pg'): string[] {
  const databaseDir = new RegExp(`^${clusterDir}/(?:base/\\d+|pg_tblspc/\\d+/PG_[^/]+/\\d+)$`);
  const byDir = new Map<string, string[]>();
  for (const member of members) {
    const dir = path.posix.dirname(member);
    if (!databaseDir.test(dir)) continue;
    const names = byDir.get(dir) ?? [];
    names.push(path.posix.basename(member));
    byDir.set(dir, names);
  }
  return [...byDir].flatMap(([dir, names]) => unloggedForks(names).map((name) => `${dir}/${name}`));
}

/** tar --exclude patterns (`pg/base/5/16400`, ...) for the unlogged relations' files of the cluster in `pgData`, now. */
export async function unloggedExcludes(pgData: string): Promise<string[]> {
  const perDirectory = await Promise.all(
    (await databaseDirectories(pgData)).map(async (dir) => {
      // A database dropped meanwhile has no files left to leave out.
      const names = await fs.readdir(path.join(pgData, dir)).catch(() => [] as string[]);
      return unloggedRelations(names).flatMap((relation) => unloggedRelationPatterns(`pg/${dir}`, relation));
    }),
  );
  return perDirectory.flat();
}
