import { Router } from 'express';
import { createCode } from './create-code.js';
import { deleteCode } from './delete-code.js';
import { downloadCodeImage } from './download-code-image.js';
import { setCodeActive } from './set-code-active.js';
import { showCodeList } from './show-code-list.js';
import { showCodePreview } from './show-code-preview.js';
import { showCode } from './show-code.js';
import { showDeleteCode } from './show-delete-code.js';
import { showFormRow } from './show-form-row.js';
import { showNewCode } from './show-new-code.js';
import { updateCode } from './update-code.js';
import type { DashboardDependencies } from '../shared/context.js';

/**
 * /codes — the code list, a code's page, create, edit, pause, delete, downloads, destination history. Every
 * path is exact, so /codes/:id/analytics and /codes/:id/scans.csv fall through to the analytics routes.
 * Members may do all of it (issue 11: members work with codes and analytics).
 */
export function codesRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/codes', showCodeList(deps));
  router.post('/codes', createCode(deps));
  // Before /codes/:id, which would otherwise take "new" and "form-row" for ids.
  router.get('/codes/new', showNewCode(deps));
  router.get('/codes/form-row', showFormRow(deps));
  router.get('/codes/:id', showCode(deps));
  router.post('/codes/:id', updateCode(deps));
  router.get('/codes/:id/qr.svg', showCodePreview(deps));
  router.get('/codes/:id/download', downloadCodeImage(deps));
  router.post('/codes/:id/pause', setCodeActive(deps, false));
  router.post('/codes/:id/resume', setCodeActive(deps, true));
  router.get('/codes/:id/delete', showDeleteCode(deps));
  router.post('/codes/:id/delete', deleteCode(deps));
  return router;
}
