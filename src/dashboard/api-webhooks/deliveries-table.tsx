import type { Attempt, Delivery } from '../../webhooks/delivery-service.js';
import { Moment } from '../shared/moment.js';
import { excerpt } from './format.js';
import { TableRegion } from '../shared/table-region.js';

/** A row of the delivery log: the delivery and its latest attempt (none yet while it waits for the first). */
export interface DeliveryListItem {
  delivery: Delivery;
  latest: Attempt | undefined;
}

const STATUS_LABELS: Record<Delivery['status'], string> = { succeeded: 'Succeeded', pending: 'Pending', failed: 'Failed' };

export function DeliveriesTable(props: { items: DeliveryListItem[] }) {
  if (props.items.length === 0) return <p class="muted">No deliveries yet. Scans of this account's codes and test events appear here.</p>;
  return (
    <TableRegion label="Webhook deliveries table">
      <table id="deliveries">
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Event</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Latency</th>
            <th scope="col">Response</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map(({ delivery, latest }) => (
            <tr>
              <th scope="row">
                <a href={`/api-and-webhooks/deliveries/${delivery.id}`}>
                  <Moment at={delivery.createdAt} seconds />
                </a>
              </th>
              <td class="mono nowrap">{delivery.event}</td>
              <td>
                <span class={`status status-${delivery.status}`}>{STATUS_LABELS[delivery.status]}</span>
                {delivery.nextAttemptAt && delivery.attemptCount > 0 && (
                  <small class="muted">
                    {' '}
                    next at <Moment at={delivery.nextAttemptAt} seconds />
                  </small>
                )}
              </td>
              <td>{delivery.attemptCount}</td>
              <td class="nowrap">{latest ? `${latest.latencyMs} ms` : '—'}</td>
              <td>
                <AnswerSummary attempt={latest} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}

/**
 * The attempt's error where it says more than its status: an attempt that got a non-2xx answer records "HTTP 500"
 * as its error (the API gives it so), which beside the status read "HTTP 500 HTTP 500"; a redirect keeps why it
 * failed ("redirects are not followed").
 */
export function reasonBeyondStatus(attempt: Pick<Attempt, 'statusCode' | 'error'>): string | undefined {
  if (!attempt.error) return undefined;
  if (attempt.statusCode === null) return attempt.error;
  const status = `HTTP ${attempt.statusCode}`;
  if (attempt.error === status) return undefined;
  return attempt.error.startsWith(`${status}: `) ? attempt.error.slice(status.length + 2) : attempt.error;
}

/** What the receiver answered (status and the start of its body), or why no answer came. */
export function AnswerSummary(props: { attempt: Attempt | undefined; full?: boolean }) {
  const { attempt } = props;
  if (!attempt) return <>—</>;
  const text = props.full ? (attempt.responseBody ?? '') : excerpt(attempt.responseBody);
  const reason = reasonBeyondStatus(attempt);
  return (
    <>
      {attempt.statusCode !== null ? <strong>HTTP {attempt.statusCode}</strong> : <strong>No answer</strong>}
      {reason && <span class="field-error"> {reason}</span>}
      {text && (props.full ? <pre class="response-body" tabIndex={0}>{text}</pre> : <span class="mono"> {text}</span>)}
    </>
  );
}
