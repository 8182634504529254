import type { FileKind } from '../db/schema/files.js';
import { liveFilesOf } from '../db/live-files.js';
import type { Db } from '../db/schema/index.js';
import type { CodeTypeName, ContentProblem } from './types/index.js';

interface FileReference {
  /** JSON pointer into the content, as a problem names it. */
  path: string;
  fileId: string;
  kinds: readonly FileKind[];
}

/** Which content fields name stored files, and what kind each must be. */
export function fileReferencesOf(type: CodeTypeName, content: unknown): FileReference[] {
  const c = content as Record<string, unknown>;
  const one = (field: string, kinds: readonly FileKind[]): FileReference[] =>
    typeof c[field] === 'string' ? [{ path: `/${field}`, fileId: c[field], kinds }] : [];
  switch (type) {
    case 'PDF':
      return one('fileId', ['pdf']);
    case 'MP3':
      return one('fileId', ['audio']);
    case 'VIDEO':
      return one('fileId', ['video']);
    case 'IMAGES':
      return ((c.fileIds as string[] | undefined) ?? []).map((fileId, i) => ({ path: `/fileIds/${i}`, fileId, kinds: ['image'] }));
    case 'VCARD_PLUS':
    case 'CONTACT':
      return one('photoFileId', ['image', 'logo']);
    default:
      return [];
  }
}

/**
 * A code may only name live files of its own account, of the kind its type plays: the content schema checks an
 * id's shape, this checks what it points at, so no account can put another's file (or a deleted one) on its
 * page. One query for all of a content's files. Problems come back with paths under `/content`.
 *
 * Call it inside the transaction that stores the reference: the files found are locked FOR KEY SHARE until that
 * transaction ends, so the unreferenced-upload prune (src/files/prune-unreferenced.ts, which locks FOR UPDATE)
 * either passes them over or, holding them first, is waited for and its deletion seen here as "may have been
 * deleted". Checked before the transaction, a file could be pruned between the check and the commit.
 */
export async function checkFileReferences(db: Db, accountId: string, type: CodeTypeName, content: unknown): Promise<ContentProblem[]> {
  const references = fileReferencesOf(type, content);
  if (references.length === 0) return [];
  const rows = await liveFilesOf(db, accountId)
    .select(['id', 'kind'])
    .where('sha256', '!=', '')
    .where('id', 'in', references.map((r) => r.fileId))
    .orderBy('id')
    .forKeyShare()
    .execute();
  const kinds = new Map(rows.map((row) => [row.id, row.kind]));
  const problems: ContentProblem[] = [];
  for (const reference of references) {
    const kind = kinds.get(reference.fileId);
    if (kind === undefined) problems.push({ path: `/content${reference.path}`, message: 'is not a file of this account (it may have been deleted)' });
    else if (!reference.kinds.includes(kind)) problems.push({ path: `/content${reference.path}`, message: `is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} file, not ${reference.kinds.join(' or ')}` });
  }
  return problems;
}
