import type { User } from '../../people/users.js';
import { CsrfField } from '../shared/layout.js';
import { Day } from '../shared/moment.js';
import { TableRegion } from '../shared/table-region.js';

/** The account's people; each row's buttons name what they do (the row gives the person). */
export function PeopleTable(props: { users: User[]; selfId: string; csrfToken: string }) {
  return (
    <TableRegion label="People">
      <table>
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Since</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {props.users.map((user) => (
            <tr>
              <th scope="row">
                {user.email}
                {user.id === props.selfId && <span class="muted"> (you)</span>}
              </th>
              <td>{user.role === 'owner' ? 'Owner' : 'Member'}</td>
              <td>
                <Day at={user.createdAt} />
              </td>
              <td>
                <div class="row-actions">
                  <form method="post" action={`/people/${user.id}/role`} class="inline-form">
                    <CsrfField token={props.csrfToken} />
                    <input type="hidden" name="role" value={user.role === 'owner' ? 'member' : 'owner'} />
                    <button type="submit" class="secondary outline">
                      {user.role === 'owner' ? 'Make member' : 'Make owner'}
                    </button>
                  </form>
                  {user.id !== props.selfId && (
                    <form method="post" action={`/people/${user.id}/reset-link`} class="inline-form">
                      <CsrfField token={props.csrfToken} />
                      <button type="submit" class="secondary outline">
                        Create reset link
                      </button>
                    </form>
                  )}
                  <a href={`/people/${user.id}/remove`}>Remove</a>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
