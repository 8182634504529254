/** `business` → `Business`: plans are named like that in SPEC.md and to people. */
export function planLabel(plan: string): string {
  return plan.charAt(0).toUpperCase() + plan.slice(1);
}
