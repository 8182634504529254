import type { ComponentChildren } from 'preact';
import { PAGE_CSS } from './page-style.js';

/** The frame of every landing page: title, the account that published it, no indexing. */
export function PageShell({ title, accountName, children }: { title: string; accountName: string; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: PAGE_CSS }} />
      </head>
      <body>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <footer>Published by {accountName}</footer>
      </body>
    </html>
  );
}

/** Multi-line text as written (line ends kept by CSS, not by markup built from strings). */
export function Paragraph({ text }: { text: string | undefined }) {
  return text ? <p class="t">{text}</p> : null;
}
