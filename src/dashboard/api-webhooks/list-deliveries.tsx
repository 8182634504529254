import type { RequestHandler } from 'express';
import type { DeliveryStatus } from '../../db/schema/webhooks.js';
import { idPattern } from '../../ids.js';
import { listDeliveries } from '../../webhooks/delivery-service.js';
import { pageContext, sessionOf, type DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';
import { DELIVERY_STATUSES, DeliveriesPage } from './deliveries-page.js';
import { sendPage } from '../shared/render.js';
import { staleReadsOf } from '../shared/stale-reads.js';
import { withLatestAttempts } from './overview-data.js';

const PAGE_SIZE = 50;
const DELIVERY_ID = idPattern('whd');

/** GET /api-and-webhooks/deliveries?status=&cursor=: the log, newest first, by the delivery-id cursor. */
export function listDeliveriesAction(_deps: DashboardDependencies): RequestHandler {
  return async (req, res) => {
    const { status, cursor } = req.query;
    const wantedStatus = typeof status === 'string' && status !== '' ? status : undefined;
    const after = typeof cursor === 'string' && cursor !== '' ? cursor : undefined;
    // Hand-edited links only: the page's own links always carry a status and a cursor of these shapes.
    if ((wantedStatus && !DELIVERY_STATUSES.includes(wantedStatus as DeliveryStatus)) || (after && !DELIVERY_ID.test(after))) {
      throw new DashboardError(400, 'That link is not right', 'Open the delivery log from the API & webhooks page.');
    }
    const accountId = sessionOf(res).user.accountId;
    // A log a moment behind (a read replica) is fine; a browser that has just acted reads the primary (stale-reads.ts).
    const { page, items } = await staleReadsOf(res).read(async (db) => {
      const page = await listDeliveries(db, accountId, { status: wantedStatus as DeliveryStatus | undefined, limit: PAGE_SIZE, cursor: after });
      return { page, items: await withLatestAttempts(db, accountId, page.data) };
    });
    sendPage(res, <DeliveriesPage context={pageContext(res)} items={items} status={wantedStatus as DeliveryStatus | undefined} nextCursor={page.nextCursor} />);
  };
}
