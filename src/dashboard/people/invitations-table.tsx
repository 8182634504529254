import type { PendingInvitation } from '../../people/invitations.js';
import { Moment } from '../shared/moment.js';
import { TableRegion } from '../shared/table-region.js';

/** Invitations not yet accepted, revoked or expired. */
export function InvitationsTable(props: { invitations: PendingInvitation[] }) {
  return (
    <section aria-labelledby="pending-heading">
      <h2 id="pending-heading">Pending invitations</h2>
      {props.invitations.length === 0 ? (
        <p class="muted">No pending invitations.</p>
      ) : (
        <TableRegion label="Pending invitations table">
          <table>
            <thead>
              <tr>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Invited by</th>
                <th scope="col">Expires</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {props.invitations.map((invitation) => (
                <tr>
                  <th scope="row">{invitation.email}</th>
                  <td>{invitation.role === 'owner' ? 'Owner' : 'Member'}</td>
                  <td>{invitation.invitedByEmail ?? 'the operator'}</td>
                  <td>
                    <Moment at={invitation.expiresAt} />
                  </td>
                  <td>
                    <a href={`/people/invitations/${invitation.id}/revoke`}>Revoke</a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </section>
  );
}
