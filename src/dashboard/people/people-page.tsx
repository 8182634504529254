import type { PendingInvitation } from '../../people/invitations.js';
import type { User } from '../../people/users.js';
import { Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { FieldErrors } from '../shared/form-field.js';
import { InvitationsTable } from './invitations-table.js';
import { InviteForm, type InviteValues } from './invite-form.js';
import { PeopleTable } from './people-table.js';
import { type ShownLink, ShownLinkBox } from './shown-link.js';

export interface PeoplePageProps {
  context: PageContext;
  users: User[];
  invitations: PendingInvitation[];
  mailConfigured: boolean;
  notice?: string | undefined;
  error?: string;
  shownLink?: ShownLink;
  invite?: { values: InviteValues; errors: FieldErrors };
}

/** Owners: the account's people and roles, invitations, reset links for those who forgot their password. */
export function PeoplePage(props: PeoplePageProps) {
  const session = props.context.session!;
  return (
    <Layout context={props.context} title="People">
      <h1>People</h1>
      {props.notice && <Flash kind="ok">{props.notice}</Flash>}
      {props.error && <Flash kind="error">{props.error}</Flash>}
      {props.shownLink && <ShownLinkBox link={props.shownLink} />}
      <section aria-labelledby="people-heading">
        <h2 id="people-heading">People in {session.user.accountName}</h2>
        <PeopleTable users={props.users} selfId={session.user.userId} csrfToken={props.context.csrfToken} />
      </section>
      <InviteForm csrfToken={props.context.csrfToken} mailConfigured={props.mailConfigured} {...props.invite} />
      <InvitationsTable invitations={props.invitations} />
    </Layout>
  );
}
