import { Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { ApiKeysSection, type ApiKeysSectionProps } from './api-keys-section.js';
import { DeliveriesTable, type DeliveryListItem } from './deliveries-table.js';
import { GuideSection } from './guide-section.js';
import { WebhookSection, type WebhookSectionProps } from './webhook-section.js';

export interface OverviewData {
  apiAvailable: boolean;
  plan: string;
  keys: ApiKeysSectionProps['keys'];
  webhook: WebhookSectionProps['webhook'];
  recentDeliveries: DeliveryListItem[];
  /** Set when there are older deliveries than the ones shown. */
  moreDeliveries: boolean;
  baseUrl: string;
}

/** What one answer adds to the page: a notice after a redirect, a new key, a refused field, a revealed secret. */
export interface OverviewExtras {
  notice?: string;
  newKey?: ApiKeysSectionProps['newKey'];
  nameError?: ApiKeysSectionProps['nameError'];
  urlError?: WebhookSectionProps['urlError'];
  revealedSecret?: string;
}

export function OverviewPage(props: { context: PageContext; data: OverviewData; extras?: OverviewExtras }) {
  const { context, data } = props;
  const extras = props.extras ?? {};
  const activeKey = data.keys.find((key) => !key.revokedAt);
  return (
    <Layout context={context} title="API & webhooks">
      <h1>API &amp; webhooks</h1>
      {extras.notice && <Flash kind="ok">{extras.notice}</Flash>}
      <div class="api-layout">
        <div>
          <ApiKeysSection
            csrfToken={context.csrfToken}
            apiAvailable={data.apiAvailable}
            plan={data.plan}
            keys={data.keys}
            newKey={extras.newKey}
            nameError={extras.nameError}
          />
          <WebhookSection csrfToken={context.csrfToken} webhook={data.webhook} urlError={extras.urlError} revealedSecret={extras.revealedSecret} />
        </div>
        <GuideSection baseUrl={data.baseUrl} keyPrefix={activeKey?.prefix} />
      </div>
      <DeliveryLog items={data.recentDeliveries} more={data.moreDeliveries} />
    </Layout>
  );
}

/** The latest deliveries; `outOfBand` when htmx replaces it beside another answer (after a test event). */
export function DeliveryLog(props: { items: DeliveryListItem[]; more: boolean; outOfBand?: boolean }) {
  return (
    <section id="delivery-log" aria-labelledby="delivery-log-heading" hx-swap-oob={props.outOfBand ? 'true' : undefined}>
      <h2 id="delivery-log-heading">Delivery log</h2>
      <DeliveriesTable items={props.items} />
      {props.more && (
        <p>
          <a href="/api-and-webhooks/deliveries">All deliveries</a>
        </p>
      )}
    </section>
  );
}
