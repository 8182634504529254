import type { Response } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { getBranding } from '../../accounts/branding.js';
import { megabytes } from '../../files/file-errors.js';
import { fileUrl } from '../../landing/page-style.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { BrandingPage, type BrandingPageProps } from './branding-page.js';
import { sendPage } from '../shared/render.js';

/** Logos are shown in a 160 × 48 box on a phone: 2 MB is far more than any needs, and keeps pages light. */
export const LOGO_MAX_BYTES = 2 * 1024 * 1024;

export function logoLimit(deps: DashboardDependencies): number {
  return Math.min(LOGO_MAX_BYTES, deps.config.files.maxFileBytes);
}

/** Renders /account/branding for the signed-in owner, also with a form's error (from the actions). */
export async function renderBranding(
  deps: DashboardDependencies,
  res: Response,
  shown: Pick<BrandingPageProps, 'notice' | 'colorError' | 'logoError'> = {},
  status = 200,
): Promise<void> {
  const accountId = sessionOf(res).user.accountId;
  const [account, branding] = await Promise.all([getAccount(deps.db, accountId), getBranding(deps.db, accountId)]);
  sendPage(
    res,
    <BrandingPage
      context={pageContext(res)}
      accountName={account.name}
      branding={branding}
      logoUrl={branding.logoFileId ? fileUrl(branding.logoFileId) : null}
      logoLimit={megabytes(logoLimit(deps))}
      {...shown}
    />,
    status,
  );
}
