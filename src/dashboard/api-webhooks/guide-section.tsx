/**
 * The short guide beside the keys and the webhook. The curl example carries the start of one of the account's
 * keys (its stored prefix), never a whole key: the whole key exists only in the one answer that created it.
 */
export function GuideSection(props: { baseUrl: string; keyPrefix: string | undefined }) {
  const prefix = props.keyPrefix ?? 'qrk_';
  const curl = [
    `# your whole key, copied when you created it`,
    `export QROUTE_API_KEY='${prefix}…'`,
    `curl -H "Authorization: Bearer $QROUTE_API_KEY" '${props.baseUrl}/qrcodes?limit=10'`,
  ].join('\n');
  const verify = [
    `import { verifyWebhook } from '@qroute/sdk';`,
    ``,
    `// rawBody: the request body exactly as received, before JSON parsing`,
    `const event = verifyWebhook(rawBody, request.headers, process.env.QROUTE_WEBHOOK_SECRET);`,
  ].join('\n');
  return (
    <aside id="guide" aria-labelledby="guide-heading">
      <h2 id="guide-heading">Guide</h2>
      <h3>Base URL</h3>
      <p>
        <code id="api-base-url">{props.baseUrl}</code>{' '}
        <button type="button" class="secondary outline copy-small" data-copy="#api-base-url">
          Copy
        </button>
      </p>
      <h3>Calling the API</h3>
      <p>Send the key as a bearer token on every request:</p>
      {/* Focusable: a block that scrolls must be reachable by keyboard. */}
      <pre tabIndex={0}>
        <code>{curl}</code>
      </pre>
      <h3>Verifying webhooks</h3>
      <ol>
        <li>Take the raw request body, before any JSON parsing.</li>
        <li>Compute HMAC-SHA256 of it with the signing secret, as lowercase hex.</li>
        <li>Compare it with the X-Service-Signature header: equal length, in constant time (crypto.timingSafeEqual).</li>
        <li>Reject the request when they differ.</li>
      </ol>
      <p>The SDK does all of it (and checks the Standard Webhooks headers' timestamp against replays):</p>
      {/* Focusable: a block that scrolls must be reachable by keyboard. */}
      <pre tabIndex={0}>
        <code>{verify}</code>
      </pre>
      <p>
        <a href="/docs">The full API reference</a>
      </p>
    </aside>
  );
}
