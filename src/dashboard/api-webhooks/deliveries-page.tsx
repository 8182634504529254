import type { DeliveryStatus } from '../../db/schema/webhooks.js';
import { Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { DeliveriesTable, type DeliveryListItem } from './deliveries-table.js';

export const DELIVERY_STATUSES: readonly DeliveryStatus[] = ['pending', 'succeeded', 'failed'];

/** The whole delivery log, newest first, a page at a time, optionally one status only. */
export function DeliveriesPage(props: { context: PageContext; items: DeliveryListItem[]; status: DeliveryStatus | undefined; nextCursor: string | null }) {
  const older = props.nextCursor && `/api-and-webhooks/deliveries?${new URLSearchParams({ ...(props.status && { status: props.status }), cursor: props.nextCursor })}`;
  return (
    <Layout context={props.context} title="Webhook deliveries">
      <p>
        <a href="/api-and-webhooks">← API &amp; webhooks</a>
      </p>
      <h1 id="deliveries-heading">Webhook deliveries</h1>
      <form method="get" action="/api-and-webhooks/deliveries" class="row-actions">
        <label for="delivery-status">Status</label>
        <select id="delivery-status" name="status">
          <option value="" selected={!props.status}>
            All
          </option>
          {DELIVERY_STATUSES.map((status) => (
            <option value={status} selected={props.status === status}>
              {status[0]!.toUpperCase() + status.slice(1)}
            </option>
          ))}
        </select>
        <button type="submit" class="secondary">
          Show
        </button>
      </form>
      <DeliveriesTable items={props.items} />
      {older && (
        <p>
          <a href={older}>Older deliveries</a>
        </p>
      )}
    </Layout>
  );
}
