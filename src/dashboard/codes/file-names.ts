import type { Db } from '../../db/schema/index.js';
import { findLiveFile } from '../../files/file-records.js';
import type { TypeForm } from './type-forms/index.js';

/**
 * The upload names of the files a form shows, by id: only the account's own files (a hand-made form naming
 * another account's file learns nothing; the schema check refuses it). At most 31 look-ups (a full gallery).
 */
export async function fileNamesOf(db: Db, accountId: string, form: TypeForm, content: Record<string, unknown>): Promise<Map<string, string>> {
  const ids = form.fields.flatMap((field) => {
    const value = content[field.key];
    if (field.kind === 'file' && typeof value === 'string') return [value];
    if (field.kind === 'files' && Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
    return [];
  });
  const files = await Promise.all(ids.slice(0, 31).map((id) => findLiveFile(db, id, accountId)));
  return new Map(files.flatMap((file) => (file ? [[file.id, file.originalName] as const] : [])));
}
