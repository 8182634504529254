import type { Namesake } from '../../codes/namesakes.js';
import { Moment } from '../shared/moment.js';

/** Beside a code whose name others of the account share: which they are, and what tells them apart. */
export function NamesakesNote(props: { name: string; namesakes: { shown: Namesake[]; total: number } }) {
  const { shown, total } = props.namesakes;
  if (total === 0) return null;
  return (
    <div class="flash flash-note" role="note" aria-labelledby="namesakes-heading">
      <p id="namesakes-heading">
        <strong>
          {total === 1 ? 'Another code is' : `${total} other codes are`} also named “{props.name}”.
        </strong>{' '}
        The list tells them apart by short URL and date; rename this one if a clearer name helps.
      </p>
      <ul>
        {shown.map((code) => (
          <li key={code.id}>
            <a href={`/codes/${code.id}`}>/r/{code.slug}</a>, created <Moment at={code.createdAt} />
          </li>
        ))}
        {total > shown.length && <li>and {total - shown.length} more</li>}
      </ul>
    </div>
  );
}
