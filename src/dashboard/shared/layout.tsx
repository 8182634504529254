import type { ComponentChildren } from 'preact';
import type { PageContext } from './context.js';
import { CSRF_FIELD, CSRF_HEADER } from './csrf.js';

interface Section {
  href: string;
  label: string;
  ownersOnly?: boolean;
}

/** The navigation; "API & webhooks" is named exactly as SPEC.md names the section. */
export const SECTIONS: readonly Section[] = [
  { href: '/codes', label: 'Codes' },
  { href: '/imports', label: 'Import' },
  { href: '/designs', label: 'Designs' },
  { href: '/analytics', label: 'Analytics' },
  { href: '/api-and-webhooks', label: 'API & webhooks', ownersOnly: true },
  { href: '/people', label: 'People', ownersOnly: true },
  { href: '/account', label: 'Account' },
];

/**
 * htmx settings the CSP needs: no inline indicator <style> (style-src is 'self'), no eval and no script tags
 * from swapped fragments (script-src is 'self'), history snapshots off (pages hold private data), and error
 * answers swapped like any other (the dashboard's error handler sends them as a message for <main>).
 */
const HTMX_CONFIG = JSON.stringify({
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  historyCacheSize: 0,
  refreshOnHistoryMiss: true,
  // Error answers are swapped too: the dashboard's error handler retargets them to <main> with a message.
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '[45]..', swap: true, error: true },
  ],
});

/** The id of every page's <main>: the skip link's target, and where htmx error answers are swapped. */
export const MAIN_ID = 'main';

export function Layout(props: { context: PageContext; title: string; children: ComponentChildren }) {
  const { context, title } = props;
  const session = context.session;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="htmx-config" content={HTMX_CONFIG} />
        <title>{`${title} · qroute`}</title>
        <link rel="stylesheet" href={context.assets.picoCss} />
        <link rel="stylesheet" href={context.assets.appCss} />
        <script src={context.assets.htmxJs} defer />
        <script src={context.assets.appJs} defer />
      </head>
      <body hx-headers={JSON.stringify({ [CSRF_HEADER]: context.csrfToken })}>
        {/* First in the tab order on every page (WCAG 2.4.1): past the navigation, to the page's own content. */}
        <a class="skip-link" href={`#${MAIN_ID}`}>
          Skip to content
        </a>
        <header class="container">
          <nav class="site-nav" aria-label="Main">
            <ul>
              <li>
                <a class="brand" href={session ? '/codes' : '/login'}>qroute</a>
              </li>
              {session && <li class="muted hide-small account-name">{session.user.accountName}</li>}
            </ul>
            {session && (
              /*
               * On a phone the sections are behind a "Menu" button (a <details>: it opens without JavaScript and with
               * Enter or Space); on wider screens app.css shows them in a row and app.js keeps the <details> open.
               */
              <details class="site-menu">
                <summary>Menu</summary>
                <ul>
                  {SECTIONS.filter((section) => !section.ownersOnly || session.user.role === 'owner').map((section) => (
                    <li>
                      <a href={section.href} aria-current={context.path.startsWith(section.href) ? 'page' : undefined}>
                        {section.label}
                      </a>
                    </li>
                  ))}
                  <li>
                    <form method="post" action="/logout" class="inline-form">
                      <CsrfField token={context.csrfToken} />
                      <button type="submit" class="secondary outline">Sign out</button>
                    </form>
                  </li>
                </ul>
              </details>
            )}
          </nav>
        </header>
        {/* tabindex -1: the skip link and an error summary's links can move focus here (not a tab stop itself). */}
        <main class="container" id={MAIN_ID} tabIndex={-1}>
          {props.children}
        </main>
        {/* DB-IP Lite's licence (CC BY 4.0) asks for this link where its results are shown: scans' countries. */}
        <footer class="container">
          <small class="muted">
            IP geolocation by <a href="https://db-ip.com">DB-IP</a>
          </small>
        </footer>
      </body>
    </html>
  );
}

/** The hidden field every state-changing form carries (htmx requests also send the header from <body>). */
export function CsrfField(props: { token: string }) {
  return <input type="hidden" name={CSRF_FIELD} value={props.token} />;
}

export function Flash(props: { kind: 'ok' | 'error'; children: ComponentChildren }) {
  return (
    <p class={`flash flash-${props.kind}`} role={props.kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </p>
  );
}
