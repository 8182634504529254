import type { RequestHandler } from 'express';
import { applyTemplateToCodes } from '../../designs/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/** The most codes one form may name: the page lists at most 100, so more is not a person using it. */
const MAX_CODES = 1000;

/**
 * POST /designs/:id/apply: every checked code follows the template (their own designs are dropped), in one
 * statement; ids that are not the account's live codes are passed over.
 */
export function applyDesignTemplate(deps: DashboardDependencies): RequestHandler<{ id: string }> {
  return async (req, res) => {
    const { accountId } = sessionOf(res).user;
    const raw = (req.body as Record<string, unknown> | undefined)?.code;
    const codeIds = (Array.isArray(raw) ? raw : [raw]).filter((id): id is string => typeof id === 'string').slice(0, MAX_CODES);
    const applied = await applyTemplateToCodes(deps.db, { accountId, templateId: req.params.id, codeIds });
    res.redirect(303, `/designs/${encodeURIComponent(req.params.id)}?done=applied&applied=${applied}`);
  };
}
