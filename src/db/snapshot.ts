import type { Db } from './schema/index.js';

/**
 * Runs `read` in one read-only repeatable-read transaction, so every query in it sees the same snapshot (a page
 * and its totals agree even while scans are written); inside a transaction already, it uses that one.
 */
export async function inOneSnapshot<T>(db: Db, read: (db: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return read(db);
  return db.transaction().setIsolationLevel('repeatable read').setAccessMode('read only').execute(read);
}
