import { Router } from 'express';
import { cancelImportAction, confirmImportAction } from './confirm-import.js';
import { downloadCreatedCodes } from './download-created-codes.js';
import { downloadImportZip } from './download-import-zip.js';
import { downloadTemplate } from './download-template.js';
import { exportCodes } from './export-codes.js';
import { showImport, showImportProgress } from './show-import.js';
import { showImports } from './show-imports.js';
import { uploadImport } from './upload-import.js';
import type { DashboardDependencies } from '../shared/context.js';

/**
 * /imports — bulk import from CSV (a dry run, then a background job), its results and downloads, the per-type
 * templates, and the export of all codes in the same format. Members may do all of it, as they may create codes.
 */
export function importsRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/imports', showImports(deps));
  router.post('/imports', uploadImport(deps));
  // Before /imports/:id, which would otherwise take these for ids.
  router.get('/imports/export.csv', exportCodes(deps));
  router.get('/imports/templates/:file', downloadTemplate(deps));
  router.get('/imports/:id', showImport(deps));
  router.get('/imports/:id/progress', showImportProgress(deps));
  router.post('/imports/:id/confirm', confirmImportAction(deps));
  router.post('/imports/:id/cancel', cancelImportAction(deps));
  router.get('/imports/:id/codes.csv', downloadCreatedCodes(deps));
  router.get('/imports/:id/qr-codes.zip', downloadImportZip(deps));
  return router;
}
