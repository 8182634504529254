import type { FileKind } from '../db/schema/files.js';
import type { Db } from '../db/schema/index.js';
import { FileRejectedError } from '../files/file-errors.js';
import { deleteFile } from '../files/file-records.js';
import { type FileLimits, storeFile } from '../files/store-file.js';
import type { FileNames, NamedFile } from './check-import.js';
import type { ImportZip } from './import-zip.js';

export interface ZipFileStore extends FileNames {
  /** Deletes what this upload stored, for a ZIP refused as a whole part way through. */
  discard(): Promise<void>;
}

/**
 * Stores the ZIP's files that rows name, as a form's upload stores them (storeFile: the type from the content's
 * first bytes, never the name; the size and account storage limits; an SVG only as a logo), each once however
 * many rows name it. A file refused for its content is a problem of every row that names it, with the store's
 * reason as its code; a broken ZIP entry is a ZipRefusedError that refuses the whole upload.
 */
export function zipFileStore(db: Db, zip: ImportZip, accountId: string, limits: FileLimits): ZipFileStore {
  const stored = new Map<string, Promise<NamedFile>>();
  const ids: string[] = [];
  return {
    resolve: (kind: FileKind, reference: string) => {
      const file = zip.find(reference);
      if (!file) return Promise.resolve({ problem: 'names no file in the ZIP (nor a file id: fil_…)' });
      const key = `${file.path}\u0000${kind}`;
      let result = stored.get(key);
      if (!result) {
        result = (async (): Promise<NamedFile> => {
          try {
            const saved = await storeFile(db, { accountId, kind, name: file.name, stream: zip.read(file) }, limits);
            ids.push(saved.id);
            return { id: saved.id };
          } catch (error) {
            if (error instanceof FileRejectedError) return { problem: `"${file.path}" was not stored: ${error.message}`, code: error.reason };
            throw error;
          }
        })();
        stored.set(key, result);
      }
      return result;
    },
    discard: async () => {
      for (const id of ids) await deleteFile(db, accountId, id);
    },
  };
}
