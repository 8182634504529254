import type { RequestHandler } from 'express';
import { BrandingError, setBrandColor } from '../../accounts/branding.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { formChecked } from '../shared/forms.js';
import { brandingRedirect, chosenColor } from './branding-form.js';
import { renderBranding } from './render-branding.js';

/** POST /account/branding/color: saves the colour, or with `reset` goes back to qroute's own. */
export function saveColor(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    if (formChecked(req.body, 'reset')) {
      await setBrandColor(deps.db, accountId, null);
      res.redirect(303, brandingRedirect('color-reset'));
      return;
    }
    const typed = chosenColor(req.body);
    try {
      await setBrandColor(deps.db, accountId, typed);
    } catch (error) {
      if (!(error instanceof BrandingError)) throw error;
      await renderBranding(deps, res, { colorError: { typed, message: error.message } }, 400);
      return;
    }
    res.redirect(303, brandingRedirect('color-saved'));
  };
}
