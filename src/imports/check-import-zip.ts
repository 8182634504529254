import type { Db } from '../db/schema/index.js';
import type { FileLimits } from '../files/store-file.js';
import { checkImport, type CheckResult } from './check-import.js';
import { MAX_ZIP_BYTES, openImportZip, ZipRefusedError } from './import-zip.js';
import { zipFileStore } from './zip-file-store.js';

/**
 * The dry run of a ZIP holding a CSV and the files its rows name (by name, in the file columns): the ZIP is
 * checked whole first (import-zip.ts), then the CSV is checked as an upload of it alone would be, storing each
 * named file as it goes. A ZIP refused part way (an entry that turns out broken) takes the files it stored with it.
 */
export async function checkImportZip(
  db: Db,
  input: { accountId: string; userId: string; fileName: string; path: string; size: number; limits: FileLimits },
): Promise<CheckResult> {
  if (input.size > MAX_ZIP_BYTES) {
    return { ok: false, code: 'zip_too_large', message: `The ZIP is larger than ${MAX_ZIP_BYTES / 1024 / 1024} MB. Split the import into smaller ZIPs.` };
  }
  let zip;
  try {
    zip = await openImportZip(input.path);
  } catch (error) {
    if (error instanceof ZipRefusedError) return { ok: false, code: error.code, message: error.message };
    throw error;
  }
  const files = zipFileStore(db, zip, input.accountId, input.limits);
  try {
    const result = await checkImport(db, { accountId: input.accountId, userId: input.userId, fileName: input.fileName, bytes: zip.csv, files });
    if (!result.ok) await files.discard();
    return result;
  } catch (error) {
    await files.discard();
    if (error instanceof ZipRefusedError) return { ok: false, code: error.code, message: error.message };
    throw error;
  } finally {
    zip.close();
  }
}
