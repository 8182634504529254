import { errors } from '../errors.js';
import type { FieldError } from '../errors.js';
import { newId } from '../ids.js';
import { parseRouting, type Routing } from '../routing/index.js';

/**
 * What a create or change may say about where scans go (issue 28, docs/integrating/routing.md): the routing as sent
 * (checked here, against the stored one, so rule ids are kept), and the schedule. `undefined` leaves a field as it
 * is; `null` removes it.
 */
export interface RoutingChanges {
  routing?: unknown;
  activeFrom?: Date | null;
  expiresAt?: Date | null;
  scanLimit?: number | null;
  /** Already checked and normalised (parseDestinationUrl). */
  expiredUrl?: string | null;
}

/** The code as stored, read under its row lock (null fields: none set). */
export interface CodeRoutingState {
  type: string;
  destinationUrl: string;
  routing: Routing | null;
  activeFrom: Date | null;
  expiresAt: Date | null;
}

export interface RoutingColumns {
  routing?: string | null;
  active_from?: Date | null;
  expires_at?: Date | null;
  scan_limit?: number | null;
  expired_url?: string | null;
}

/**
 * The columns to write for `changes` to a code in `state` (null on create), and the destination the code then has:
 * with a split, the code's destination reads as the first variant's, so a split sets it, a `url` sent with a split
 * must be that one, and a new `url` without a routing change moves the first variant along. Every problem is
 * reported at once as `invalid_body`, each at its pointer into the request.
 */
export function applyRoutingChanges(
  state: CodeRoutingState,
  changes: RoutingChanges & { destinationUrl?: string },
): { columns: RoutingColumns; destinationUrl: string } {
  const problems: FieldError[] = [];
  const columns: RoutingColumns = {};
  let routing = state.routing;
  let destinationUrl = changes.destinationUrl ?? state.destinationUrl;

  if (changes.routing !== undefined) {
    if (changes.routing === null) {
      routing = null;
    } else {
      const parsed = parseRouting(changes.routing, state.routing, () => newId('rul'));
      if (parsed.ok) routing = parsed.routing;
      else problems.push(...parsed.problems.map((problem) => ({ path: `/body/routing${problem.pointer}`, message: problem.message })));
    }
    if (routing?.split && state.type !== 'URL') {
      problems.push({ path: '/body/routing/split', message: `a split applies to URL codes only: a ${state.type} code answers with its page unless a rule matches` });
    }
    const first = routing?.split?.[0]?.destinationUrl;
    if (first !== undefined && changes.destinationUrl !== undefined && changes.destinationUrl !== first) {
      problems.push({ path: '/body/url', message: `must be the split's first destination (${first}) or be left out: with a split, the code's destination is its first variant's` });
    }
    if (first !== undefined) destinationUrl = first;
    columns.routing = routing === null ? null : JSON.stringify(routing);
  } else if (changes.destinationUrl !== undefined && routing?.split) {
    routing = { ...routing, split: routing.split.map((variant, index) => (index === 0 ? { ...variant, destinationUrl: changes.destinationUrl! } : variant)) };
    columns.routing = JSON.stringify(routing);
  }

  const activeFrom = changes.activeFrom === undefined ? state.activeFrom : changes.activeFrom;
  const expiresAt = changes.expiresAt === undefined ? state.expiresAt : changes.expiresAt;
  if (activeFrom && expiresAt && expiresAt.getTime() <= activeFrom.getTime()) {
    problems.push({
      path: changes.expiresAt === undefined ? '/body/activeFrom' : '/body/expiresAt',
      message: `expiresAt (${expiresAt.toISOString()}) must be later than activeFrom (${activeFrom.toISOString()})`,
    });
  }
  if (changes.activeFrom !== undefined) columns.active_from = changes.activeFrom;
  if (changes.expiresAt !== undefined) columns.expires_at = changes.expiresAt;
  if (changes.scanLimit !== undefined) columns.scan_limit = changes.scanLimit;
  if (changes.expiredUrl !== undefined) columns.expired_url = changes.expiredUrl;

  if (problems.length > 0) throw errors.invalidBody(problems);
  return { columns, destinationUrl };
}

/** Whether `changes` says anything about routing or the schedule. */
export function hasRoutingChanges(changes: RoutingChanges): boolean {
  return (
    changes.routing !== undefined ||
    changes.activeFrom !== undefined ||
    changes.expiresAt !== undefined ||
    changes.scanLimit !== undefined ||
    changes.expiredUrl !== undefined
  );
}
