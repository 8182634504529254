import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { getBranding, parseBrandColor } from '../../accounts/branding.js';
import { fileUrl } from '../../landing/page-style.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import { BrandPreview } from './brand-preview.js';
import { sendFragment } from '../shared/render.js';
import { chosenColor } from './branding-form.js';

/**
 * GET /account/branding/sample?picker=&hex=&saved=: the preview drawing in the colour being typed (htmx swaps it
 * in as the colour changes). Nothing is saved; a colour that cannot be read shows the saved one.
 */
export function showSample(deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const [account, branding] = await Promise.all([getAccount(deps.db, accountId), getBranding(deps.db, accountId)]);
    const color = parseBrandColor(chosenColor(req.query)) ?? branding.color;
    sendFragment(res, <BrandPreview accountName={account.name} color={color} logoUrl={branding.logoFileId ? fileUrl(branding.logoFileId) : null} />);
  };
}
