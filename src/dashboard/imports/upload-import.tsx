import { readFile } from 'node:fs/promises';
import type { Request, RequestHandler } from 'express';
import { checkImport, type CheckResult } from '../../imports/check-import.js';
import { checkImportZip } from '../../imports/check-import-zip.js';
import { listImports } from '../../imports/import-rows.js';
import { looksLikeZip, MAX_ZIP_BYTES } from '../../imports/import-zip.js';
import { MAX_IMPORT_BYTES } from '../../imports/read-csv.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { readMultipart } from '../shared/multipart.js';
import { ImportsPage } from './imports-page.js';
import { sendPage } from '../shared/render.js';
import { withUploadOnDisk } from './upload-on-disk.js';
import { accountGate } from './account-gate.js';

/**
 * POST /imports (multipart, field `file`): the dry run of a CSV, or of a ZIP of a CSV and the files its rows name
 * (told apart by content). The upload goes to a temporary file first (a ZIP is read from its end, and may be up
 * to 200 MB); a CSV is then read into memory (at most 10 MB) because checking needs every row before anything is
 * stored. Then the report's page, or the upload page with the refusal and its code.
 */
/** Dry runs at once: one per account, two per instance (account-gate.ts). */
export const DRY_RUNS_PER_ACCOUNT = 1;
export const DRY_RUNS_PER_INSTANCE = 2;

export function uploadImport(deps: DashboardDependencies): RequestHandler {
  // A dry run writes up to 200 MB to a temporary file and may store 400 MB of files: one per account at a time,
  // two per instance, refused before the body is read.
  const gate = accountGate(
    { perAccount: DRY_RUNS_PER_ACCOUNT, perInstance: DRY_RUNS_PER_INSTANCE },
    { busyAccount: 'An import of this account is already being checked', busyInstance: 'Other imports are being checked' },
  );
  return async (req, res) => {
    const { user } = sessionOf(res);
    const result = await gate(res, user.accountId, () => dryRun(deps, req, user));
    if (!result.ok) {
      const imports = await listImports(deps.db, user.accountId);
      sendPage(res, <ImportsPage context={pageContext(res)} imports={imports} refusal={result.message} refusalCode={result.code} />, 400);
      return;
    }
    res.redirect(303, `/imports/${result.importId}`);
  };
}

async function dryRun(deps: DashboardDependencies, req: Request, user: { accountId: string; userId: string }): Promise<CheckResult> {
  let result: CheckResult | undefined;
  await readMultipart(req, { maxFiles: 1, maxFileBytes: MAX_ZIP_BYTES + 1 }, async (part) => {
    if (part.field !== 'file') {
      part.stream.resume();
      return;
    }
    result = await withUploadOnDisk(part.stream, MAX_ZIP_BYTES + 1, async (upload): Promise<CheckResult> => {
      const who = { accountId: user.accountId, userId: user.userId, fileName: part.fileName };
      if (looksLikeZip(upload.head)) return checkImportZip(deps.db, { ...who, path: upload.path, size: upload.size, limits: deps.config.files });
      if (upload.size > MAX_IMPORT_BYTES) return { ok: false, message: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.` };
      return checkImport(deps.db, { ...who, bytes: await readFile(upload.path) });
    });
  });
  return result ?? { ok: false, message: 'Choose a CSV or ZIP file to upload.' };
}
