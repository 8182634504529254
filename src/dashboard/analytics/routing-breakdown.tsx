import type { RoutedScanCount } from '../../analytics/routed-scans.js';
import type { Routing } from '../../routing/index.js';
import { DimensionTable, type DimensionRow } from './dimension-table.js';
import { rangeWords } from './format.js';
import type { ScanRange } from '../../analytics/index.js';

/**
 * A routed code's scans of the period by the rule that answered them and by split variant (issue 28). Rules are
 * named by their current names, in their current order (those without scans too); a rule id no longer in the routing
 * is a "Removed rule", and a variant beyond the current split a "Removed variant".
 */
export function RoutingBreakdown(props: { codeId: string; routing: Routing; counts: readonly RoutedScanCount[]; range: ScanRange }) {
  const { routing, counts } = props;
  const byRule = new Map<string, { scans: number; uniques: number }>();
  const byVariant = new Map<number, { scans: number; uniques: number }>();
  let unrouted = { scans: 0, uniques: 0 };
  for (const count of counts) {
    const add = (entry: { scans: number; uniques: number } | undefined) => ({ scans: (entry?.scans ?? 0) + count.scans, uniques: (entry?.uniques ?? 0) + count.uniqueScans });
    if (count.ruleId !== null) byRule.set(count.ruleId, add(byRule.get(count.ruleId)));
    else if (count.variant !== null) byVariant.set(count.variant, add(byVariant.get(count.variant)));
    else unrouted = add(unrouted);
  }
  const split = routing.split ?? [];
  const splitScans = [...byVariant.values()].reduce((sum, entry) => sum + entry.scans, 0);
  const ruleRows: DimensionRow[] = routing.rules.map((rule, index) => ({ name: `${index + 1}. ${rule.name ?? `Rule ${index + 1}`}`, ...(byRule.get(rule.id) ?? { scans: 0, uniques: 0 }) }));
  const current = new Set(routing.rules.map((rule) => rule.id));
  for (const [ruleId, entry] of byRule) if (!current.has(ruleId)) ruleRows.push({ name: 'Removed rule', details: [], ...entry });
  ruleRows.push({ name: split.length > 0 || splitScans > 0 ? 'No rule (the split)' : 'No rule (the code’s destination)', scans: unrouted.scans + splitScans, uniques: unrouted.uniques + [...byVariant.values()].reduce((sum, entry) => sum + entry.uniques, 0) });
  const variantIndexes = [...new Set([...split.keys(), ...byVariant.keys()])].sort((a, b) => a - b);
  const variantRows: DimensionRow[] = variantIndexes.map((index) => ({
    name: split[index] ? `${index + 1}. ${split[index]!.destinationUrl}` : `Removed variant ${index + 1}`,
    details: [split[index] ? `${split[index]!.weight} %` : '—'],
    ...(byVariant.get(index) ?? { scans: 0, uniques: 0 }),
  }));
  return (
    <section aria-labelledby="routing-breakdown-heading" class="routing-breakdown">
      <h2 id="routing-breakdown-heading">Routing</h2>
      <p>
        Scans of {rangeWords(props.range)} by the rule that answered them{variantRows.length > 0 ? ', and the split’s by variant (share: of the split’s scans)' : ''}.{' '}
        <a href={`/codes/${props.codeId}/routing`}>Change the routing</a>
      </p>
      <DimensionTable caption="Rule" rows={ruleRows.map((row) => ({ ...row, details: undefined }))} empty="No scans in this range." />
      {variantRows.length > 0 && <DimensionTable caption="Variant" detailColumns={['Weight']} rows={variantRows} empty="No scans in this range." />}
    </section>
  );
}
