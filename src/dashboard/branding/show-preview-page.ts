import type { RequestHandler } from 'express';
import { getAccount } from '../../accounts/account-service.js';
import { getBranding } from '../../accounts/branding.js';
import { htmlAnswer, pageOf, publisherOf } from '../../landing/index.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';

/** What the sample page shows: a made-up business, the page type with the most of the account's look on it. */
const SAMPLE = {
  type: 'BUSINESS',
  slug: 'SAMPLE00',
  content: {
    name: 'Corner Bakery',
    description: 'Fresh bread every morning. This is a sample: your own codes show their own content.',
    phone: '+49 30 1234567',
    website: 'https://bakery.example',
    openingHours: { monday: [{ opens: '08:00', closes: '18:00' }], saturday: [{ opens: '08:00', closes: '13:00' }] },
    address: 'Market 1\n10115 Berlin',
  },
};

/**
 * GET /account/branding/preview: a sample landing page rendered exactly as scans get one (same renderer, same
 * CSP, the saved colour and logo), so an owner sees it as a phone does before printing.
 */
export function showPreviewPage(deps: DashboardDependencies): RequestHandler {
  return async (_req, res) => {
    const accountId = sessionOf(res).user.accountId;
    const [account, brand] = await Promise.all([getAccount(deps.db, accountId), getBranding(deps.db, accountId)]);
    const publisher = publisherOf({ accountName: account.name, brand });
    const { headers, body } = htmlAnswer(pageOf(SAMPLE, new Date(), publisher), publisher);
    // The page's own policy replaces the dashboard's: its inline stylesheet is allowed by hash.
    res.set({ ...headers, 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' }).status(200).end(body);
  };
}
