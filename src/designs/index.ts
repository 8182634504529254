/**
 * Designs (issue 12): an account's saved templates and each code's look. Every function takes the db (or a
 * transaction) and the account, and sees only that account's templates and codes.
 */
export { checkedDesign, DesignInvalidError, requireDesign, storedDesign, type CheckedDesign } from './checked-design.js';
export {
  createDesignTemplate,
  deleteDesignTemplate,
  getDesignTemplate,
  listDesignTemplates,
  MAX_TEMPLATE_NAME,
  TemplateNameInvalidError,
  TemplateNameTakenError,
  updateDesignTemplate,
  type DesignTemplate,
} from './design-templates.js';
export { applyTemplateToCodes, designOfCode, designsOfCodes, setCodeDesign, setCodeTemplate, type CodeLook } from './code-designs.js';
