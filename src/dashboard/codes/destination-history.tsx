import type { DestinationChange, ShownActor } from '../../codes/index.js';
import { When } from './when.js';
import { TableRegion } from '../shared/table-region.js';

/** Every destination the code has had, newest first, with who set it: a person, or an API key. */
export function DestinationHistory(props: { changes: DestinationChange[]; zone: string; limit: number }) {
  return (
    <section aria-labelledby="history-heading">
      <h2 id="history-heading">Destination history</h2>
      <TableRegion label="Destination history table">
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">From</th>
              <th scope="col">To</th>
              <th scope="col">By</th>
            </tr>
          </thead>
          <tbody>
            {props.changes.map((change) => (
              <tr>
                <td>
                  <When at={change.changedAt} zone={props.zone} />
                </td>
                <td class="destination">{change.previousUrl ?? <span class="muted">(created)</span>}</td>
                <td class="destination">{change.newUrl}</td>
                <td>
                  <ActorName actor={change.actor} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
      {props.changes.length >= props.limit && <p class="muted">The latest {props.limit} changes are shown.</p>}
    </section>
  );
}

function ActorName(props: { actor: ShownActor }) {
  const { actor } = props;
  if (actor.kind === 'user') return actor.email ? <>{actor.email}</> : <span class="muted">a person since removed</span>;
  return (
    <>
      API key <span class="mono">{actor.label}</span>
      {actor.name && ` (${actor.name})`}
    </>
  );
}
