import { CsrfField } from '../shared/layout.js';

/**
 * The signing secret's place on the page: a button until an owner asks, then the secret with a copy button.
 * The page never carries the secret when it loads; htmx swaps this whole block for the revealed one.
 */
export function SecretReveal(props: { csrfToken: string; secret?: string }) {
  if (props.secret === undefined) {
    return (
      <div id="webhook-secret">
        <form method="post" action="/api-and-webhooks/webhook/secret" hx-post="/api-and-webhooks/webhook/secret" hx-target="#webhook-secret" hx-swap="outerHTML">
          <CsrfField token={props.csrfToken} />
          <button type="submit" class="secondary">
            Reveal secret
          </button>
        </form>
      </div>
    );
  }
  return (
    <div id="webhook-secret">
      <label for="webhook-secret-value">Signing secret</label>
      <div class="row-actions">
        <input id="webhook-secret-value" class="mono secret-value" type="text" readonly value={props.secret} />
        <button type="button" data-copy="#webhook-secret-value">
          Copy
        </button>
      </div>
    </div>
  );
}
