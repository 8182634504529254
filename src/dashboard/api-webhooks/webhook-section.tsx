import type { WebhookSettings } from '../../webhooks/webhook-settings.js';
import { CsrfField } from '../shared/layout.js';
import { Moment } from '../shared/moment.js';
import { SecretReveal } from './secret-reveal.js';

export interface WebhookSectionProps {
  csrfToken: string;
  webhook: WebhookSettings | undefined;
  /** The URL typed, with the reason it was refused. */
  urlError?: { value: string; message: string };
  /** Only in the answer to "Reveal secret" without JavaScript. */
  revealedSecret?: string;
}

export function WebhookSection(props: WebhookSectionProps) {
  const { webhook } = props;
  return (
    <section id="webhook" aria-labelledby="webhook-heading">
      <h2 id="webhook-heading">Webhook</h2>
      <WebhookState webhook={webhook} />
      <UrlForm csrfToken={props.csrfToken} current={webhook?.url} urlError={props.urlError} />
      {webhook && (
        <>
          <h3>Signing secret</h3>
          <p>Every delivery is signed with this secret. Keep it on your receiver only.</p>
          <SecretReveal csrfToken={props.csrfToken} secret={props.revealedSecret} />
          {webhook.previousSecretExpiresAt && (
            <p class="flash flash-ok" id="rotation-overlap">
              The previous secret stays valid until <Moment at={webhook.previousSecretExpiresAt} />: until then the webhook-signature header
              also carries a signature made with it. X-Service-Signature already uses the new secret, so give your receiver both (the SDK's
              verifyWebhook accepts a list).
            </p>
          )}
          <div class="row-actions">
            <form method="post" action="/api-and-webhooks/webhook/rotate" class="inline-form">
              <CsrfField token={props.csrfToken} />
              <button type="submit" class="secondary">
                Rotate secret
              </button>
            </form>
            <form method="post" action="/api-and-webhooks/webhook/test" class="inline-form" hx-post="/api-and-webhooks/webhook/test" hx-target="#test-outcome" hx-swap="innerHTML" hx-disabled-elt="find button">
              <CsrfField token={props.csrfToken} />
              <button type="submit" class="secondary">
                Send test event
              </button>
            </form>
            <form method="get" action="/api-and-webhooks/webhook/remove" class="inline-form">
              <button type="submit" class="secondary outline">
                Remove webhook
              </button>
            </form>
          </div>
          <div id="test-outcome" aria-live="polite"></div>
        </>
      )}
    </section>
  );
}

function WebhookState(props: { webhook: WebhookSettings | undefined }) {
  const { webhook } = props;
  if (!webhook) {
    return <p>No webhook is set. Enter the address that should receive a signed POST for every scan of this account's codes.</p>;
  }
  if (webhook.enabled) {
    return (
      <p id="webhook-state">
        <strong>Enabled.</strong> Every scan is sent to <span class="mono">{webhook.url}</span>
        {webhook.consecutiveFailures > 0 && ` (the last ${webhook.consecutiveFailures} deliveries failed; 20 in a row disable it)`}.
      </p>
    );
  }
  return (
    <p id="webhook-state" class="flash flash-error">
      <strong>Disabled</strong> since <Moment at={webhook.disabledAt} />: {webhook.disabledReason ?? 'no reason recorded'}. Nothing is sent to{' '}
      <span class="mono">{webhook.url}</span> until you save the URL again, which turns it back on.
    </p>
  );
}

function UrlForm(props: { csrfToken: string; current: string | undefined; urlError: WebhookSectionProps['urlError'] }) {
  const error = props.urlError;
  return (
    <form method="post" action="/api-and-webhooks/webhook">
      <CsrfField token={props.csrfToken} />
      <label for="webhook-url">Webhook URL</label>
      <input
        id="webhook-url"
        name="url"
        type="url"
        required
        maxLength={2048}
        placeholder="https://example.com/qroute-webhook"
        value={error?.value ?? props.current ?? ''}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={error ? 'webhook-url-error' : undefined}
      />
      {error && (
        <small class="field-error" id="webhook-url-error">
          {error.message}
        </small>
      )}
      <button type="submit">Save</button>
    </form>
  );
}
