import { CsrfField } from '../shared/layout.js';
import { type FieldErrors, FormField } from '../shared/form-field.js';

export interface InviteValues {
  email: string;
  role: string;
}

/** Invite someone: the email and the role; the link goes by mail, or to the owner to hand over. */
export function InviteForm(props: { csrfToken: string; mailConfigured: boolean; values?: InviteValues; errors?: FieldErrors }) {
  const role = props.values?.role === 'owner' ? 'owner' : 'member';
  return (
    <section aria-labelledby="invite-heading">
      <h2 id="invite-heading">Invite someone</h2>
      <p>
        {props.mailConfigured
          ? 'They get a link by email, valid for 7 days, to choose their password.'
          : 'This qroute sends no email: you get a one-time link, valid for 7 days, to hand over.'}{' '}
        Members work with codes and analytics; owners also manage API & webhooks and people.
      </p>
      <form method="post" action="/people/invitations">
        <CsrfField token={props.csrfToken} />
        <div class="grid">
          <div>
            <FormField id="invite-email" label="Email" name="email" type="email" autocomplete="off" value={props.values?.email} error={props.errors?.email} />
          </div>
          <div>
            <label for="invite-role">Role</label>
            <select id="invite-role" name="role">
              <option value="member" selected={role === 'member'}>
                Member
              </option>
              <option value="owner" selected={role === 'owner'}>
                Owner
              </option>
            </select>
          </div>
        </div>
        <button type="submit">Send invitation</button>
      </form>
    </section>
  );
}
