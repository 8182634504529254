import { withSpooledFile } from '../../files/spool.js';
import type { Request } from 'express';
import { deleteFile } from '../../files/file-records.js';
import { FileRejectedError } from '../../files/file-errors.js';
import { storeFile } from '../../files/store-file.js';
import type { FieldProblems } from './type-forms/field-problems.js';
import type { DashboardDependencies } from '../shared/context.js';
import { readMultipart } from '../shared/multipart.js';
import { hasFiles, pathOf, type TypeForm } from './type-forms/index.js';
import { readDraft, type FormFields } from './type-forms/read-draft.js';

/** A submitted type form: the name, the content as the schema will see it, and what happened to its uploads. */
export interface TypedSubmission {
  name: string;
  content: Record<string, unknown>;
  /** Uploads refused (wrong type, too large, storage full), by the path of their field. */
  uploadProblems: Record<string, { message: string; whole: true }>;
  /** Files this request stored: deleted again if the code cannot be saved at all (the plan's limit). */
  storedFileIds: string[];
}

/**
 * Reads a type's create or edit form. A form with file fields is multipart: each file is stored as it arrives
 * (streamed, limits from FILE_MAX_MB and ACCOUNT_STORAGE_MB) and its id put where the schema expects it. If
 * the upload itself fails (cut off, too many files), the files it stored are deleted and the error goes on.
 */
export async function readTypedSubmission(deps: DashboardDependencies, req: Request, accountId: string, form: TypeForm): Promise<TypedSubmission> {
  const uploadProblems: TypedSubmission['uploadProblems'] = {};
  const storedFileIds: string[] = [];
  const uploaded = new Map<string, string[]>();
  let fields: FormFields;
  if (hasFiles(form) && req.is('multipart/form-data')) {
    const targets = new Map<string, (typeof form.fields)[number] & { kind: 'file' | 'files' }>(form.fields.flatMap((f) => (f.kind === 'file' || f.kind === 'files' ? [[`upload:${pathOf(f.key)}`, f]] : [])));
    const { maxFileBytes } = deps.config.files;
    try {
      fields = await readMultipart(
        // One more byte than the store allows, so an oversized file reaches the store's own clear refusal.
        req,
        { maxFiles: 31, maxFileBytes: maxFileBytes + 1 },
        async (part) => {
          const field = targets.get(part.field);
          if (!field) {
            part.stream.resume();
            return;
          }
          const path = pathOf(field.key);
          // The slot is taken before storing, so a gallery keeps the order the files were chosen in.
          const ids = uploaded.get(path) ?? [];
          uploaded.set(path, ids);
          const slot = ids.length;
          ids.push('');
          try {
            // Received onto disk first: a slow client then holds a socket, never a database transaction.
            const stored = await withSpooledFile(part.stream, maxFileBytes + 1, (stream) =>
              storeFile(deps.db, { accountId, kind: field.fileKind, name: part.fileName, stream }, deps.config.files),
            );
            storedFileIds.push(stored.id);
            ids[slot] = stored.id;
          } catch (error) {
            if (!(error instanceof FileRejectedError)) throw error;
            uploadProblems[path] = { message: `${part.fileName} was not uploaded: ${error.message}`, whole: true };
          }
        },
      );
    } catch (error) {
      await deleteFiles(deps, accountId, storedFileIds);
      throw error;
    }
    for (const [path, ids] of uploaded) uploaded.set(path, ids.filter((id) => id !== ''));
  } else {
    fields = Object.fromEntries(Object.entries((req.body ?? {}) as Record<string, unknown>).filter((e): e is [string, string] => typeof e[1] === 'string'));
  }
  return { name: fields.name ?? '', content: readDraft(form, fields, uploaded), uploadProblems, storedFileIds };
}

export async function deleteFiles(deps: DashboardDependencies, accountId: string, fileIds: readonly string[]): Promise<void> {
  for (const id of fileIds) await deleteFile(deps.db, accountId, id);
}

/** The schema's problems (paths under /content and /name) as the form shows them, the first per field. */
export function problemsByPath(problems: readonly { path: string; message: string }[], form: TypeForm): Record<string, { message: string; whole?: boolean }> {
  const byPath: Record<string, { message: string; whole?: boolean }> = {};
  for (const problem of problems) {
    const sentence = form.sentences?.[problem.message];
    byPath[problem.path] ??= sentence ? { message: sentence, whole: true } : { message: problem.message };
  }
  return byPath;
}

/** The content without the given files (deleted after a refusal), so the form shows again without them. */
export function withoutFiles(form: TypeForm, content: Record<string, unknown>, fileIds: readonly string[]): Record<string, unknown> {
  const gone = new Set(fileIds);
  const out = { ...content };
  for (const field of form.fields) {
    const value = out[field.key];
    if (field.kind === 'file' && typeof value === 'string' && gone.has(value)) delete out[field.key];
    if (field.kind === 'files' && Array.isArray(value)) out[field.key] = value.filter((id) => !gone.has(id as string));
  }
  return out;
}

export type { FieldProblems };
