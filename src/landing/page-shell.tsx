import type { ComponentChildren } from 'preact';
import { fileUrl } from './page-style.js';

/** Who published a page, as the page shows it: the account's name, its stylesheet (its colour), its logo. */
export interface Publisher {
  accountName: string;
  /** From pageCss: the page's only style, allowed by the CSP through its hash. */
  css: string;
  logoFileId: string | null;
}

/** The frame of every landing page: the publisher's logo, title, the account that published it, no indexing. */
export function PageShell({ title, publisher, children }: { title: string; publisher: Publisher; children: ComponentChildren }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width,initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>{title}</title>
        <style dangerouslySetInnerHTML={{ __html: publisher.css }} />
      </head>
      <body>
        {publisher.logoFileId && (
          <header>
            {/* A fixed box (the CSS fits the logo inside it), so the page does not move when the logo arrives. */}
            <img class="lg" src={fileUrl(publisher.logoFileId)} alt={publisher.accountName} width={160} height={48} />
          </header>
        )}
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <footer>Published by {publisher.accountName}</footer>
      </body>
    </html>
  );
}

/** Multi-line text as written (line ends kept by CSS, not by markup built from strings). */
export function Paragraph({ text }: { text: string | undefined }) {
  return text ? <p class="t">{text}</p> : null;
}
