import { liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors.js';
import { deleteFile, findLiveFile, namedByLiveCode } from '../files/file-records.js';
import { parseCodeName } from './code-input.js';
import { type Actor, recordDestinationChange } from './destination-history.js';
import { checkFileReferences, fileReferencesOf } from './file-references.js';
import { assertCodeId, codeColumns, toQrCode } from './qr-code-row.js';
import type { QrCode } from './qr-code-service.js';
import { redirectDestination, type TypedCodeResult } from './typed-code.js';
import { CODE_TYPES, type CodeTypeName, type ContentProblem, isCodeTypeName } from './types/index.js';

/**
 * Changes a live code's name and content after printing, by the same rules as createTypedCode: the content is
 * checked by the code's own type's schema (the type never changes) and may name only live files of the account;
 * problems come back with paths under `/content` (and `/name`) and nothing is stored. For a redirect type the new
 * destination goes through the destination history, as the API's PATCH url does. The redirect cache hears of the
 * change from the database (qr_codes' trigger NOTIFYs on a change of destination or content).
 */
export async function updateTypedCode(
  db: Db,
  input: { accountId: string; id: string; name: string; content: unknown; actor: Actor },
): Promise<TypedCodeResult> {
  assertCodeId(input.id);
  const current = await liveCodesOf(db, input.accountId).select('type').where('id', '=', input.id).executeTakeFirst();
  if (!current) throw errors.notFound();
  if (!isCodeTypeName(current.type)) throw new Error(`code ${input.id} has unknown type ${current.type}`);
  const type = current.type;

  const problems: ContentProblem[] = [];
  const name = parseCodeName(input.name);
  if (!name.ok) problems.push({ path: '/name', message: name.message });
  const parsed = CODE_TYPES[type].parse(input.content);
  if (!parsed.ok) problems.push(...parsed.problems.map((p) => ({ path: `/content${p.path}`, message: p.message })));
  if (!name.ok || !parsed.ok) return { ok: false, problems };

  const code = await inTransaction(db, async (trx): Promise<{ problems: ContentProblem[] } | { code: QrCode; previousContent: unknown }> => {
    // In the transaction that stores the content, the files locked until it commits, so the unreferenced-upload
    // prune cannot delete one between this check and the commit (checkFileReferences says how).
    const fileProblems = await checkFileReferences(trx, input.accountId, type, parsed.content);
    if (fileProblems.length > 0) return { problems: fileProblems };
    // Under the row lock, so of two racing edits the second records the first one's destination as previous.
    const locked = await liveCodesOf(trx, input.accountId)
      .select(['destination_url', 'content'])
      .where('id', '=', input.id)
      .forUpdate()
      .executeTakeFirst();
    if (!locked) throw errors.notFound();
    // A page type's destination is its own short URL and stays; a redirect type's follows its content.
    const destination = redirectDestination(type, parsed.content) ?? locked.destination_url;
    // URL codes made through the API keep no content (their destination is all there is); keep it that way.
    const content = type === 'URL' && locked.content === null ? null : JSON.stringify(parsed.content);
    const row = await trx
      .updateTable('qr_codes')
      .set({ name: name.name, content, destination_url: destination, updated_at: new Date() })
      .where('id', '=', input.id)
      .returning(codeColumns)
      .executeTakeFirstOrThrow();
    if (destination !== locked.destination_url) {
      await recordDestinationChange(trx, { codeId: input.id, previousUrl: locked.destination_url, newUrl: destination, actor: input.actor });
    }
    return { code: toQrCode(row), previousContent: locked.content };
  });
  if ('problems' in code) return { ok: false, problems: code.problems };
  await releaseReplacedFiles(db, input.accountId, type, code.previousContent, parsed.content);
  return { ok: true, code: code.code };
}

/** The content a code's edit form starts from: its stored content (null for a URL code made through the API). */
export async function currentContent(db: Db, input: { accountId: string; id: string }): Promise<unknown> {
  assertCodeId(input.id);
  const row = await liveCodesOf(db, input.accountId).select('content').where('id', '=', input.id).executeTakeFirst();
  if (!row) throw errors.notFound();
  return row.content;
}

/**
 * The files a deleted code showed (its PDF, gallery, audio, video, photo) are deleted too, unless another live code
 * of the account still shows them, so deleting codes frees the account's storage. After the code's delete commits.
 */
export async function releaseFilesOfDeletedCode(db: Db, accountId: string, type: string, content: unknown): Promise<void> {
  if (isCodeTypeName(type)) await releaseReplacedFiles(db, accountId, type, content, {});
}

/**
 * Files the edit took off the code (a replaced PDF, images removed from a gallery) are deleted, freeing the
 * account's storage, unless another live code of the account still names them (the content of a deleted code
 * is never shown again, so it does not count). After the commit: a file left
 * behind by a crash here costs storage, never a broken page.
 */
async function releaseReplacedFiles(db: Db, accountId: string, type: CodeTypeName, before: unknown, after: unknown): Promise<void> {
  if (before === null || before === undefined) return;
  const kept = new Set(fileReferencesOf(type, after).map((r) => r.fileId));
  const dropped = fileReferencesOf(type, before).map((r) => r.fileId).filter((id) => !kept.has(id));
  for (const fileId of new Set(dropped)) {
    // As the unreferenced-upload prune does (src/files/prune-unreferenced.ts says why): the file locked FOR UPDATE
    // first, so a save naming it meanwhile (which holds FOR KEY SHARE until it commits) is waited for, then the
    // check for other codes in a new statement that sees that save; a save that comes later waits for this and
    // finds the file deleted.
    await inTransaction(db, async (trx) => {
      const file = await findLiveFile(trx, fileId, accountId, { lock: 'update' });
      // A logo may also be the account's branding or a design's: those are not this form's to delete.
      if (!file || file.kind === 'logo') return;
      if (!(await namedByLiveCode(trx, accountId, fileId))) await deleteFile(trx, accountId, fileId);
    });
  }
}

