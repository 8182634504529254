import type { Db, Transaction } from './schema/index.js';

/** Runs `work` in the caller's transaction when there is one, else in a new one. */
export async function inTransaction<T>(db: Db, work: (trx: Transaction) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db as Transaction);
  return db.transaction().execute(work);
}
