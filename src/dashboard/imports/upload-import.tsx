import type { RequestHandler } from 'express';
import { checkImport } from '../../imports/check-import.js';
import { listImports } from '../../imports/import-rows.js';
import { MAX_IMPORT_BYTES } from '../../imports/read-csv.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { readMultipart } from '../shared/multipart.js';
import { ImportsPage } from './imports-page.js';
import { sendPage } from '../shared/render.js';

/**
 * POST /imports (multipart, field `file`): the dry run. The file is read into memory (at most 10 MB, the bound
 * busboy enforces) because checking needs every row before anything is stored; then the report's page.
 */
export function uploadImport(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { user } = sessionOf(res);
    let upload: { fileName: string; bytes: Buffer; truncated: boolean } | undefined;
    await readMultipart(req, { maxFiles: 1, maxFileBytes: MAX_IMPORT_BYTES }, async (part) => {
      if (part.field !== 'file') {
        part.stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of part.stream) chunks.push(chunk as Buffer);
      upload = { fileName: part.fileName, bytes: Buffer.concat(chunks), truncated: part.truncated() };
    });
    const refuse = async (message: string) => {
      sendPage(res, <ImportsPage context={pageContext(res)} imports={await listImports(deps.db, user.accountId)} refusal={message} />, 400);
    };
    if (!upload) return refuse('Choose a CSV file to upload.');
    if (upload.truncated) return refuse(`The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.`);
    const result = await checkImport(deps.db, { accountId: user.accountId, userId: user.userId, fileName: upload.fileName, bytes: upload.bytes });
    if (!result.ok) return refuse(result.message);
    res.redirect(303, `/imports/${result.importId}`);
  };
}
