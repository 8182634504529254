import { CsrfField, Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';

export function LoginPage(props: { context: PageContext; next: string; signupOpen: boolean; email?: string; error?: string }) {
  return (
    <Layout context={props.context} title="Sign in">
      <article class="narrow">
        <h1>Sign in</h1>
        {props.error && <Flash kind="error">{props.error}</Flash>}
        <form method="post" action="/login">
          <CsrfField token={props.context.csrfToken} />
          <input type="hidden" name="next" value={props.next} />
          <label for="login-email">Email</label>
          <input id="login-email" name="email" type="email" autocomplete="username" required value={props.email ?? ''} />
          <label for="login-password">Password</label>
          <input id="login-password" name="password" type="password" autocomplete="current-password" required />
          <button type="submit">Sign in</button>
        </form>
        <p>
          <a href="/password-reset">Forgot your password?</a>
          {props.signupOpen && (
            <>
              {' · '}
              <a href="/signup">Create an account</a>
            </>
          )}
        </p>
      </article>
    </Layout>
  );
}
