import { planLabel } from '../shared/plan-label.js';
import type { PlanUsage } from './plan-usage-line.js';
export { planUsage } from './show-new-code.js';

/** What a create refused by the plan's limit says. */
export function limitMessage(usage: PlanUsage): string {
  return (
    `The ${planLabel(usage.plan)} plan allows ${usage.limit} codes and all of them are in use. ` +
    'Delete a code you no longer need, or move to a larger plan, to create this one.'
  );
}
