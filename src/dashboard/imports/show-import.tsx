import type { RequestHandler } from 'express';
import { planRoom, tooManyMessage } from '../../imports/confirm-import.js';
import { getImport, listImportRows, type ImportSummary } from '../../imports/import-rows.js';
import type { Db } from '../../db/schema/index.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { ImportPage, PREVIEW_ROWS, type CheckedReport } from './import-page.js';
import { ImportStatus, type ImportResult } from './import-status.js';
import { sendFragment, sendPage } from '../shared/render.js';

/** How many created codes the result lists (the CSV has them all). */
const RESULT_ROWS = 200;

/** GET /imports/:id */
export function showImport(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const summary = await getImport(deps.db, accountId, req.params.id);
    const refusal = typeof req.query.refused === 'string' ? refusalOf(req.query.refused) : undefined;
    const report = summary.status === 'checked' ? await checkedReport(deps.db, accountId, summary) : undefined;
    const result = summary.status === 'done' ? await importResult(deps, summary) : undefined;
    sendPage(res, <ImportPage context={pageContext(res)} summary={summary} report={report} result={result} refusal={refusal} />);
  };
}

/** GET /imports/:id/progress: the fragment htmx polls every second while the job works. */
export function showImportProgress(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const summary = await getImport(deps.db, accountId, req.params.id);
    const result = summary.status === 'done' ? await importResult(deps, summary) : undefined;
    sendFragment(res, <ImportStatus summary={summary} result={result} />);
  };
}

async function checkedReport(db: Db, accountId: string, summary: ImportSummary): Promise<CheckedReport> {
  const room = await planRoom(db, accountId);
  const { pending } = summary.counts;
  return {
    tooMany: pending > room.remaining ? tooManyMessage(pending, room) : undefined,
    toCreate: await listImportRows(db, summary.id, ['pending'], PREVIEW_ROWS),
    problems: await listImportRows(db, summary.id, ['invalid']),
    skipped: await listImportRows(db, summary.id, ['skipped'], PREVIEW_ROWS),
  };
}

async function importResult(deps: DashboardDependencies, summary: ImportSummary): Promise<ImportResult> {
  return {
    created: await listImportRows(deps.db, summary.id, ['created'], RESULT_ROWS),
    problems: await listImportRows(deps.db, summary.id, ['invalid', 'failed']),
    skipped: await listImportRows(deps.db, summary.id, ['skipped'], PREVIEW_ROWS),
    siteUrl: deps.config.siteUrl,
  };
}

function refusalOf(reason: string): string | undefined {
  return reason === 'limit' ? 'The rows to create no longer fit the plan: codes were created since the check. See the counts below.' : undefined;
}
