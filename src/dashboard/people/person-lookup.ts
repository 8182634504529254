import { listPendingInvitations, type PendingInvitation } from '../../people/invitations.js';
import { listUsers, type User } from '../../people/users.js';
import type { DashboardDependencies } from '../shared/context.js';
import { DashboardError } from '../shared/errors.js';

/** The 404 for an id that is unknown or another account's: the same page for both. */
export function notHere(): DashboardError {
  return new DashboardError(404, 'Not found', 'There is nothing here, or it belongs to another account.');
}

/** A person of the signed-in account by id; an id from another account is a 404 like an unknown one. */
export async function personOfAccount(deps: DashboardDependencies, accountId: string, userId: string): Promise<User> {
  const user = (await listUsers(deps.db, accountId)).find((candidate) => candidate.id === userId);
  if (!user) throw notHere();
  return user;
}

/** A pending invitation of the signed-in account by id; anything else is a 404. */
export async function invitationOfAccount(deps: DashboardDependencies, accountId: string, invitationId: string): Promise<PendingInvitation> {
  const invitation = (await listPendingInvitations(deps.db, accountId)).find((candidate) => candidate.id === invitationId);
  if (!invitation) throw notHere();
  return invitation;
}
