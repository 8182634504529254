import type { WebhookSettings } from '../../webhooks/webhook-settings.js';
import { CsrfField, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';

/** The confirmation before the webhook is removed, naming its URL. */
export function RemoveWebhookPage(props: { context: PageContext; webhook: WebhookSettings }) {
  return (
    <Layout context={props.context} title="Remove webhook">
      <article class="narrow">
        <h1>Remove the webhook?</h1>
        <p>
          Scans are no longer sent to <span class="mono">{props.webhook.url}</span>. Deliveries still waiting are marked failed, and the
          signing secret is deleted: setting a webhook again issues a new one.
        </p>
        <form method="post" action="/api-and-webhooks/webhook/remove">
          <CsrfField token={props.context.csrfToken} />
          <div class="row-actions">
            <button type="submit" class="danger">
              Remove webhook
            </button>
            <a href="/api-and-webhooks#webhook">Cancel</a>
          </div>
        </form>
      </article>
    </Layout>
  );
}
