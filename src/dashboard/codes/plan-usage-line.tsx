import { planLabel } from '../shared/plan-label.js';
import { numberFormat } from './code-row.js';

export interface PlanUsage {
  plan: string;
  used: number;
  limit: number;
}

/** "Business plan · 12 of 1,000 codes used", with a bar; deleted codes do not count (ARCHITECTURE: code limit). */
export function PlanUsageLine(props: { usage: PlanUsage }) {
  const { plan, used, limit } = props.usage;
  return (
    <p class="plan-usage">
      <span>
        {planLabel(plan)} plan · {numberFormat.format(used)} of {numberFormat.format(limit)} codes used
        {used >= limit && ' (the limit: delete a code or move to a larger plan to create more)'}
      </span>
      <progress value={Math.min(used, limit)} max={Math.max(limit, 1)} aria-label="Codes used of the plan's limit" />
    </p>
  );
}
