/**
 * The plans. Only Business includes the API (SPEC: "available only to accounts on the Business plan").
 * `codeLimit` is the default maximum of live dynamic codes; an account can carry its own override.
 */
export const PLANS = {
  free: { api: false, codeLimit: 3 },
  starter: { api: false, codeLimit: 50 },
  pro: { api: false, codeLimit: 250 },
  business: { api: true, codeLimit: 1000 },
} as const satisfies Record<string, { api: boolean; codeLimit: number }>;

export type PlanName = keyof typeof PLANS;

export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export function isPlanName(value: string): value is PlanName {
  return Object.hasOwn(PLANS, value);
}

export function codeLimitOf(account: { plan: string; code_limit: number | null }): number {
  return account.code_limit ?? (isPlanName(account.plan) ? PLANS[account.plan].codeLimit : 0);
}
