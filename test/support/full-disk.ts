import { execFile as execFileCallback } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { OwnCluster } from './own-cluster.js';

const execFile = promisify(execFileCallback);

/**
 * A real full disk under the service's tables: a small tmpfs mounted for the test, a tablespace on it, the
 * tables moved there, and a filler file that takes the rest of its space. PostgreSQL then answers every write
 * that needs a new page with 53100 disk_full ("could not extend file … No space left on device"), exactly as on
 * a full volume, while its WAL and catalogs (on the cluster's own disk) keep working.
 */
export interface FullDisk {
  /** Takes every free byte of the tmpfs. */
  fill(): Promise<void>;
  /** Gives the space back, as an operator clearing the volume would. */
  free(): Promise<void>;
  /** Unmounts the tmpfs; call after the cluster is destroyed (PostgreSQL holds files on it until then). */
  remove(): Promise<void>;
}

/** Mounting needs root (CAP_SYS_ADMIN); elsewhere the test that needs it is skipped with this reason. */
export const CAN_MOUNT = process.getuid?.() === 0 && process.platform === 'linux';

const TABLESPACE = 'small_volume';

/**
 * Moves the tables of the cluster's service role (and their indexes) onto a fresh tmpfs of `sizeMb`, except
 * `keepOnMainDisk` (tables that stand for ones on another, healthy volume).
 */
export async function tablesOnSmallVolume(cluster: OwnCluster, options: { sizeMb: number; keepOnMainDisk: string[] }): Promise<FullDisk> {
  const mountPoint = await fs.mkdtemp(path.join(os.tmpdir(), 'qroute-small-volume-'));
  // PostgreSQL runs as the owner of its data directory (an unprivileged user when the tests run as root).
  const owner = await fs.stat(path.join(cluster.dataDir, 'pg'));
  await execFile('mount', ['-t', 'tmpfs', '-o', `size=${options.sizeMb}m,mode=0700,uid=${owner.uid},gid=${owner.gid}`, 'tmpfs', mountPoint]);
  const filler = path.join(mountPoint, 'filler');
  const admin = new pg.Client({ connectionString: cluster.adminConnectionString });
  await admin.connect();
  try {
    const role = new URL(cluster.connectionString).username;
    await admin.query(`create tablespace ${TABLESPACE} location '${mountPoint}'`);
    await admin.query(`alter table all in tablespace pg_default owned by ${role} set tablespace ${TABLESPACE}`);
    await admin.query(`alter index all in tablespace pg_default owned by ${role} set tablespace ${TABLESPACE}`);
    for (const table of options.keepOnMainDisk) {
      await admin.query(`alter table ${table} set tablespace pg_default`);
      const { rows } = await admin.query<{ name: string }>('select indexrelid::regclass::text as name from pg_index where indrelid = $1::regclass', [table]);
      for (const index of rows) await admin.query(`alter index ${index.name} set tablespace pg_default`);
    }
  } finally {
    await admin.end();
  }

  return {
    fill: async () => {
      const handle = await fs.open(filler, 'w');
      const chunk = Buffer.alloc(64 * 1024, 1);
      try {
        for (;;) await handle.write(chunk);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      } finally {
        await handle.close();
      }
    },
    free: () => fs.rm(filler, { force: true }),
    remove: async () => {
      await execFile('umount', [mountPoint]).catch(() => execFile('umount', ['-l', mountPoint]));
      await fs.rm(mountPoint, { recursive: true, force: true });
    },
  };
}
