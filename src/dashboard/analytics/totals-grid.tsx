import type { ScanTotals } from '../../analytics/index.js';
import { count } from './format.js';

/** Lifetime counters: every scan, those by people, and those by bots (redirected, not recorded, no webhook). */
export function TotalsGrid(props: { totals: ScanTotals }) {
  const { totals } = props;
  const stats = [
    { label: 'Total scans', value: totals.total },
    { label: 'Human scans', value: totals.human },
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
