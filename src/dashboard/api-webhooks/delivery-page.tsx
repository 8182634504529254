import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { Attempt, Delivery } from '../../webhooks/delivery-service.js';
import { AnswerSummary } from './deliveries-table.js';
import { Moment } from '../shared/moment.js';

/** One delivery with every attempt made at it, and "Redeliver". */
export function DeliveryPage(props: { context: PageContext; delivery: Delivery & { attempts: Attempt[] }; notice?: string }) {
  const { delivery } = props;
  return (
    <Layout context={props.context} title="Webhook delivery">
      <p>
        <a href="/api-and-webhooks#delivery-log">← API &amp; webhooks</a>
      </p>
      <h1>
        Delivery of {delivery.event} at <Moment at={delivery.createdAt} seconds />
      </h1>
      {props.notice && <Flash kind="ok">{props.notice}</Flash>}
      <dl class="facts">
        <dt>Id (the webhook-id header)</dt>
        <dd class="mono">{delivery.id}</dd>
        <dt>Status</dt>
        <dd>
          {delivery.status}
          {delivery.nextAttemptAt && (
            <>
              , next attempt at <Moment at={delivery.nextAttemptAt} seconds />
            </>
          )}
          {delivery.completedAt && (
            <>
              , finished at <Moment at={delivery.completedAt} seconds />
            </>
          )}
        </dd>
      </dl>
      <form method="post" action={`/api-and-webhooks/deliveries/${delivery.id}/redeliver`} class="row-actions">
        <CsrfField token={props.context.csrfToken} />
        <button type="submit">Redeliver</button>
        <small class="muted">Sends the same body with the same id now, once, and records the attempt here.</small>
      </form>
      <h2 id="attempts-heading">Attempts</h2>
      {delivery.attempts.length === 0 ? (
        <p class="muted">No attempt has been recorded yet.</p>
      ) : (
        <div class="table-scroll" tabIndex={0} role="region" aria-labelledby="attempts-heading">
          <table id="attempts">
            <thead>
              <tr>
                <th scope="col">Attempt</th>
                <th scope="col">Started</th>
                <th scope="col">URL</th>
                <th scope="col">Latency</th>
                <th scope="col">Answer</th>
              </tr>
            </thead>
            <tbody>
              {delivery.attempts.map((attempt) => (
                <tr>
                  <th scope="row">{attempt.attemptNumber}</th>
                  <td>
                    <Moment at={attempt.startedAt} seconds />
                  </td>
                  <td class="mono">{attempt.url}</td>
                  <td>{attempt.latencyMs} ms</td>
                  <td>
                    <AnswerSummary attempt={attempt} full />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Body sent</h2>
      {/* Focusable: a block that scrolls must be reachable by keyboard. */}
      <pre tabIndex={0} class="wrap-code">
        <code>{delivery.body}</code>
      </pre>
    </Layout>
  );
}
