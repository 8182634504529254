import fs from 'node:fs/promises';

/**
 * fsync for files that must survive a crash of the machine, not only of the process: a file's bytes first, then
 * its directory, so that a rename or a new name is on disk too (POSIX leaves the directory entry to the directory's
 * own sync).
 */
export async function syncFile(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function syncDirectory(dir: string): Promise<void> {
  await syncFile(dir);
}
