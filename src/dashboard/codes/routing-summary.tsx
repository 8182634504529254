import type { QrCode } from '../../codes/index.js';
import { When } from './when.js';

/**
 * On a code's page: what its routing and schedule do, in a sentence, and the link to the routing page
 * (src/dashboard/routing/), which holds the forms, so this page stays as quick to load as before.
 */
export function RoutingSummary(props: { code: QrCode; zone: string }) {
  const { code, zone } = props;
  const rules = code.routing?.rules.length ?? 0;
  const split = code.routing?.split;
  const parts: string[] = [];
  if (rules > 0) parts.push(rules === 1 ? '1 rule' : `${rules} rules`);
  if (split) parts.push(`a split ${split.map((variant) => variant.weight).join('/')}`);
  if (code.scanLimit !== null) parts.push(`at most ${code.scanLimit.toLocaleString('en-GB')} scans`);
  const scheduled = code.activeFrom !== null || code.expiresAt !== null;
  return (
    <section aria-labelledby="routing-heading">
      <h2 id="routing-heading">Routing and schedule</h2>
      <p>
        {parts.length === 0 && !scheduled ? 'Every scan goes to the same place. ' : `${parts.length > 0 ? `${capitalised(parts.join(', '))}.` : ''} `}
        {code.activeFrom && (
          <>
            Starts <When at={code.activeFrom} zone={zone} />.{' '}
          </>
        )}
        {code.expiresAt && (
          <>
            Expires <When at={code.expiresAt} zone={zone} />.{' '}
          </>
        )}
        <a href={`/codes/${code.id}/routing`}>{rules > 0 || split || scheduled || code.scanLimit !== null ? 'Change routing and schedule…' : 'Route by device, country, language or time, split, or schedule…'}</a>
      </p>
    </section>
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
