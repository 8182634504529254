import type { ScanTotals } from '../../analytics/index.js';
import { count } from './format.js';

/**
 * Lifetime counters: every scan, those by people, their unique scans, and those by bots (redirected, not recorded,
 * no webhook). Filtered, the scans matching the filters (bots have no country or language, so none are shown).
 */
export function TotalsGrid(props: { totals: ScanTotals }) {
  const { totals } = props;
  const stats =
    totals.bot === null
      ? [
          { label: 'Human scans', value: totals.human },
          { label: 'Unique scans', value: totals.unique },
        ]
      : [
          { label: 'Total scans', value: totals.total },
          { label: 'Human scans', value: totals.human },
          { label: 'Unique scans', value: totals.unique },
          { label: 'Bot scans', value: totals.bot },
        ];
  return (
    <div class="stat-grid scan-totals">
      {stats.map((stat) => (
        <article>
          <p class="muted">{stat.label}</p>
          <p class="value">{count(stat.value)}</p>
        </article>
      ))}
    </div>
  );
}
