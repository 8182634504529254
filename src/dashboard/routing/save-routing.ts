import { updateQrCode, type QrCode } from '../../codes/index.js';
import type { Db } from '../../db/schema/index.js';
import { ApiError } from '../../errors.js';
import { DEFAULT_TIME_ZONE, type Routing } from '../../routing/index.js';
import type { RoutingChanges } from '../../codes/code-routing.js';

/** The routing as the API's RoutingInput says it: what the dashboard sends back, rule ids kept. */
export interface RoutingInput {
  timeZone: string;
  rules: Array<{ id?: string; name?: string; when: Record<string, unknown>; destinationUrl: string }>;
  split?: Array<{ destinationUrl: string; weight: number }> | null;
}

/** The stored routing as input to change (a code without one: no rules, in `zone`). */
export function routingInput(routing: Routing | null, zone: string): RoutingInput {
  if (!routing) return { timeZone: zone || DEFAULT_TIME_ZONE, rules: [] };
  return {
    timeZone: routing.timeZone,
    rules: routing.rules.map((rule) => ({ ...rule, when: { ...rule.when } })),
    ...(routing.split && { split: routing.split.map((variant) => ({ ...variant })) }),
  };
}

export type SaveResult = { ok: true; code: QrCode } | { ok: false; problems: ReadonlyArray<{ path: string; message: string }> };

/**
 * Saves a change of routing or schedule through the service the API uses (which checks it against the stored
 * routing under the code's lock, keeping rule ids); its `invalid_body` problems come back with their pointers
 * (`/body/routing/rules/2/when/hours/from`, `/body/expiresAt`) for the form to put under its fields.
 */
export async function saveRouting(
  db: Db,
  input: { accountId: string; userId: string; codeId: string; changes: RoutingChanges },
): Promise<SaveResult> {
  try {
    const code = await updateQrCode(db, {
      accountId: input.accountId,
      id: input.codeId,
      changes: input.changes,
      actor: { kind: 'user', userId: input.userId },
    });
    return { ok: true, code };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_body') {
      const details = Array.isArray(error.details) ? error.details.filter(isFieldError) : [];
      return { ok: false, problems: details.length > 0 ? details : [{ path: '', message: error.message }] };
    }
    throw error;
  }
}

function isFieldError(detail: unknown): detail is { path: string; message: string } {
  const { path, message } = (detail ?? {}) as { path?: unknown; message?: unknown };
  return typeof path === 'string' && typeof message === 'string';
}
