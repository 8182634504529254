import { Router } from 'express';
import { applyDesignTemplate } from '../actions/designs/apply-design-template.js';
import { createTemplate } from '../actions/designs/create-design-template.js';
import { deleteDesignTemplate } from '../actions/designs/delete-design-template.js';
import { previewCodeDesign } from '../actions/designs/preview-code-design.js';
import { previewDesignTemplate } from '../actions/designs/preview-design-template.js';
import { saveCodeDesign } from '../actions/designs/save-code-design.js';
import { saveDesignTemplate } from '../actions/designs/save-design-template.js';
import { showCodeDesign } from '../actions/designs/show-code-design.js';
import { showDeleteDesignTemplate } from '../actions/designs/show-delete-design-template.js';
import { showDesignList } from '../actions/designs/show-design-list.js';
import { showDesignTemplate } from '../actions/designs/show-design-template.js';
import { showTemplatePreviewImage } from '../actions/designs/show-template-preview-image.js';
import { uploadCodeLogo } from '../actions/designs/upload-code-logo.js';
import { uploadTemplateLogo } from '../actions/designs/upload-template-logo.js';
import { useCodeTemplate } from '../actions/designs/use-code-template.js';
import type { DashboardDependencies } from '../context.js';

/**
 * /designs — the account's design templates — and /codes/:id/design, a code's design editor. Members may use
 * all of it, as they work with codes. Every path is exact.
 */
export function designsRoutes(deps: DashboardDependencies): Router {
  const router = Router();
  router.get('/designs', showDesignList(deps));
  router.post('/designs', createTemplate(deps));
  router.get('/designs/:id', showDesignTemplate(deps));
  router.post('/designs/:id', saveDesignTemplate(deps));
  router.post('/designs/:id/preview', previewDesignTemplate(deps));
  router.post('/designs/:id/logo', uploadTemplateLogo(deps));
  router.post('/designs/:id/apply', applyDesignTemplate(deps));
  router.get('/designs/:id/preview.svg', showTemplatePreviewImage(deps));
  router.get('/designs/:id/delete', showDeleteDesignTemplate(deps));
  router.post('/designs/:id/delete', deleteDesignTemplate(deps));
  router.get('/codes/:id/design', showCodeDesign(deps));
  router.post('/codes/:id/design', saveCodeDesign(deps));
  router.post('/codes/:id/design/preview', previewCodeDesign(deps));
  router.post('/codes/:id/design/template', useCodeTemplate(deps));
  router.post('/codes/:id/design/logo', uploadCodeLogo(deps));
  return router;
}
