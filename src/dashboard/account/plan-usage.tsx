import type { Account } from '../../accounts/account-service.js';
import { isPlanName, PLANS } from '../../accounts/plans.js';
import { planLabel } from '../shared/plan-label.js';

/** The plan, the codes used of its limit, and whether the API comes with it (SPEC: Business, 39 EUR/month). */
export function PlanUsage(props: { account: Account; isOwner: boolean }) {
  const { account } = props;
  const hasApi = isPlanName(account.plan) && PLANS[account.plan].api;
  return (
    <section aria-labelledby="plan-heading" class="account-section">
      <h2 id="plan-heading">Plan and usage</h2>
      <p>
        Plan: <strong>{planLabel(account.plan)}</strong>
      </p>
      <label for="code-usage">
        {account.codeCount} of {account.codeLimit} codes used
      </label>
      <progress id="code-usage" value={Math.min(account.codeCount, account.codeLimit)} max={Math.max(account.codeLimit, 1)} />
      {account.codeCount >= account.codeLimit && <p>The account is at its limit: delete a code before creating another, or move to a larger plan.</p>}
      {hasApi ? (
        <p>
          Your plan includes the API.{' '}
          {props.isOwner && <a href="/api-and-webhooks">Manage API keys and the webhook</a>}
        </p>
      ) : (
        <p>The API (keys, webhooks) is in the Business plan at 39 EUR/month. Ask the operator of this qroute to change your plan.</p>
      )}
    </section>
  );
}
