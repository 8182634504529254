import type { AttemptOutcome } from '../../webhooks/delivery-attempt.js';

/** What one attempt made from the dashboard (test event, redelivery) came to, in a sentence. */
export function AttemptOutcomeMessage(props: { outcome: AttemptOutcome }) {
  const { outcome } = props;
  const link = <a href={`/api-and-webhooks/deliveries/${outcome.deliveryId}`}>See the delivery</a>;
  if (outcome.status === 'succeeded') {
    return (
      <p class="flash flash-ok" role="status">
        Delivered: your receiver answered HTTP {outcome.statusCode} in {outcome.latencyMs} ms. {link}
      </p>
    );
  }
  const reason = outcome.error ?? (outcome.statusCode === undefined ? 'no answer' : `it answered HTTP ${outcome.statusCode}`);
  return (
    <p class="flash flash-error" role="alert">
      Not delivered after {outcome.latencyMs} ms: {reason}.{outcome.endpointDisabled && ` The webhook is now disabled: ${outcome.endpointDisabled}.`} {link}
    </p>
  );
}
