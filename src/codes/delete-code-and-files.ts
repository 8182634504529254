import { liveCodesOf } from '../db/live-codes.js';
import type { Database } from '../db/schema/index.js';
import { deleteQrCode } from './qr-code-service.js';
import { assertCodeId } from './qr-code-row.js';
import { releaseFilesOfDeletedCode } from './update-typed-code.js';

/**
 * Deletes one of the account's codes, then the files it showed (a PDF, a gallery, audio, video, a photo) that no
 * other live code of the account shows, so deleting codes frees the account's storage whichever way it is done
 * (the dashboard or the API). The files go after the delete commits: a crash in between leaves a file that costs
 * storage, never a page that shows a missing file.
 */
export async function deleteCodeAndFiles(db: Database, input: { accountId: string; id: string }): Promise<void> {
  assertCodeId(input.id);
  const shown = await liveCodesOf(db, input.accountId).select(['type', 'content']).where('id', '=', input.id).executeTakeFirst();
  await deleteQrCode(db, input);
  if (shown) await releaseFilesOfDeletedCode(db, input.accountId, shown.type, shown.content);
}
