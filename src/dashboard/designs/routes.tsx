import { Router } from 'express';
import { applyDesignTemplate } from './apply-design-template.js';
import { createTemplate } from './create-design-template.js';
import { deleteDesignTemplate } from './delete-design-template.js';
import { previewCodeDesign } from './preview-code-design.js';
import { previewDesignTemplate } from './preview-design-template.js';
import { saveCodeDesign } from './save-code-design.js';
import { saveDesignTemplate } from './save-design-template.js';
import { showCodeDesign } from './show-code-design.js';
import { showDeleteDesignTemplate } from './show-delete-design-template.js';
import { showDesignList } from './show-design-list.js';
import { showDesignTemplate } from './show-design-template.js';
import { showTemplatePreviewImage } from './show-template-preview-image.js';
import { uploadCodeLogo } from './upload-code-logo.js';
import { uploadTemplateLogo } from './upload-template-logo.js';
import { useCodeTemplate } from './use-code-template.js';
import type { DashboardDependencies } from '../shared/context.js';

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
