import type { Response } from 'express';
import { listApiKeys } from '../../accounts/api-keys.js';
import { isPlanName, PLANS } from '../../accounts/plans.js';
import { getWebhook } from '../../webhooks/webhook-settings.js';
import type { Db } from '../../db/schema/index.js';
import { latestAttempts, listDeliveries, type Delivery } from '../../webhooks/delivery-service.js';
import { sessionOf, type DashboardDependencies } from '../shared/context.js';
import type { DeliveryListItem } from './deliveries-table.js';
import type { OverviewData } from './overview-page.js';

/** How many deliveries the section's own page shows; the rest are on the delivery log's pages. */
const RECENT_DELIVERIES = 10;

/** The API is a Business feature (SPEC.md); the same table decides here as in the API's authentication. */
export function apiAvailableOn(plan: string): boolean {
  return isPlanName(plan) && PLANS[plan].api;
}

/** The section's latest deliveries, each with its latest attempt. */
export async function loadRecentDeliveries(db: Db, accountId: string): Promise<{ items: DeliveryListItem[]; more: boolean }> {
  const deliveries = await listDeliveries(db, accountId, { limit: RECENT_DELIVERIES });
  return { items: await withLatestAttempts(db, accountId, deliveries.data), more: deliveries.nextCursor !== null };
}

/** Everything the section's page shows, for the signed-in person's account. */
export async function loadOverview(deps: DashboardDependencies, res: Response): Promise<OverviewData> {
  const { accountId, plan } = sessionOf(res).user;
  const [keys, webhook, deliveries] = await Promise.all([
    listApiKeys(deps.db, accountId),
    getWebhook(deps.db, accountId),
    loadRecentDeliveries(deps.db, accountId),
  ]);
  return {
    apiAvailable: apiAvailableOn(plan),
    plan,
    keys,
    webhook,
    recentDeliveries: deliveries.items,
    moreDeliveries: deliveries.more,
    baseUrl: `${deps.config.siteUrl}/api/v1`,
  };
}

export async function withLatestAttempts(db: Db, accountId: string, deliveries: Delivery[]): Promise<DeliveryListItem[]> {
  const latest = await latestAttempts(db, accountId, deliveries.map((delivery) => delivery.id));
  return deliveries.map((delivery) => ({ delivery, latest: latest.get(delivery.id) }));
}
