import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { FormField } from '../shared/form-field.js';

/**
 * "Forgot your password?": with mail, a form whose answer is the same whether or not the email has an account;
 * without mail, nothing could be sent, so the page says who can make a link instead.
 */
export function PasswordResetRequestPage(props: { context: PageContext; mailConfigured: boolean; sent?: boolean; email?: string; error?: string }) {
  return (
    <Layout context={props.context} title="Reset your password">
      <article class="narrow">
        <h1>Reset your password</h1>
        {!props.mailConfigured ? (
          <>
            <p>This qroute sends no email, so a reset link comes from a person: ask an owner of your account to open People and choose "Create reset link" next to your email.</p>
            <p>An owner who forgot their password can ask another owner, or the operator of this qroute.</p>
          </>
        ) : props.sent ? (
          <Flash kind="ok">If an account uses that email, we sent a link to it. The link works once, within an hour. Asking again within 5 minutes sends nothing new: the first link still works.</Flash>
        ) : (
          <form method="post" action="/password-reset">
            <CsrfField token={props.context.csrfToken} />
            <FormField id="reset-email" label="Email" name="email" type="email" autocomplete="username" value={props.email} error={props.error} />
            <button type="submit">Send reset link</button>
          </form>
        )}
        <p>
          <a href="/login">Back to sign in</a>
        </p>
      </article>
    </Layout>
  );
}
