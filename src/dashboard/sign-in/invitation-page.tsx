import type { PendingInvitation } from '../../people/invitations.js';
import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { type FieldErrors, NewPasswordFields } from '../shared/form-field.js';

/** An invitation link opened: whose account, which email, and the password to choose. */
export function InvitationPage(props: { context: PageContext; token: string; invitation: PendingInvitation; errors?: FieldErrors; error?: string }) {
  const { invitation } = props;
  return (
    <Layout context={props.context} title="Accept invitation">
      <article class="narrow">
        <h1>Join {invitation.accountName}</h1>
        <p>
          {invitation.invitedByEmail ? `${invitation.invitedByEmail} invited you` : 'You are invited'} to join{' '}
          <strong>{invitation.accountName}</strong> on qroute as {invitation.role === 'owner' ? 'an owner' : 'a member'}.
        </p>
        {props.error && <Flash kind="error">{props.error}</Flash>}
        <form method="post" action={`/invitations/${props.token}`}>
          <CsrfField token={props.context.csrfToken} />
          <label for="invitation-email">Email</label>
          <input id="invitation-email" type="email" value={invitation.email} readonly autocomplete="username" />
          <NewPasswordFields idPrefix="invitation" labels={['Password', 'Confirm password']} errors={props.errors ?? {}} />
          <button type="submit">Accept invitation</button>
        </form>
      </article>
    </Layout>
  );
}
