// `npm run docs`: builds the portal served at /docs, docs-dist/index.html, one self-contained page (Redoc's bundle
// inlined by `redocly build-docs --inlineBundle`), and is the one place where what build-docs wrote is changed: the
// page must make no request that leaves the server (its CSP allows only 'self' and data:).
//
// - Telemetry (https://otel.cloud.redocly.com) is turned off by `telemetry: off` in redocly.yaml, which build-docs
//   passes on to the page as `disableTelemetry: true`; this script only checks that it did.
// - The "API docs by Redocly" badge in the sidebar footer loads its logo from https://cdn.redoc.ly whatever the
//   options say (@redocly/cli 2.77). The logo's two URLs are replaced by an inline SVG wordmark, so the attribution
//   stays and nothing is fetched.
// - The search's probe for a worker evaluates a string, which the CSP refuses; the probe is answered "no".
//
// The page is written under a temporary name and renamed into place, so a server or a test reading it while another
// build runs (the test files each build it) sees the old page or the new one, never half of one.
// Plain JavaScript on purpose: it runs in `npm start`'s prestart, before anything is compiled.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'docs-dist', 'index.html');
const file = path.join(root, 'docs-dist', `.index.${process.pid}.tmp.html`);
mkdirSync(path.dirname(output), { recursive: true });
const built = spawnSync(
  'redocly',
  ['build-docs', 'openapi/v1.yaml', '--output', file, '--title', 'qroute API', '--inlineBundle', '--template', 'scripts/docs-template.hbs'],
  { cwd: root, stdio: 'inherit' },
);
if (built.error) throw built.error;
if (built.status !== 0) process.exit(built.status ?? 1);
try {
  writeFileSync(file, offline(readFileSync(file, 'utf8')));
  renameSync(file, output);
} finally {
  rmSync(file, { force: true });
}

/** The page as build-docs wrote it, checked and changed so that it requests nothing from another origin. */
function offline(html) {
  const logos = {
    'https://cdn.redoc.ly/redoc/logo-mini-full.svg': wordmark(50, 'Redocly'),
    'https://cdn.redoc.ly/redoc/logo-mini.svg': wordmark(9, 'R'),
  };
  for (const [url, inline] of Object.entries(logos)) {
    // Redoc writes string literals in backticks; the data: URL has none (encodeURIComponent escapes ` and $).
    if (!html.includes(`\`${url}\``)) throw new Error(`build-docs: the Redoc badge no longer loads ${url}; check what it loads now`);
    html = html.replaceAll(`\`${url}\``, `\`${inline}\``);
  }
  // Redoc's search (FlexSearch) probes for a worker by compiling its own source with Function(), which the CSP
  // refuses (no 'unsafe-eval'); on failure it indexes in the page, which is fast enough here. Answer the probe
  // "no" up front, so the page does not try and break the policy on every load.
  const probe = /(\w+)\._factory\?\?=Function\(\w+\),!0/g;
  if ((html.match(probe) ?? []).length !== 1) throw new Error("build-docs: Redoc's search no longer probes for a worker the way it did; check it");
  html = html.replace(probe, '!1');
  if (!/const __redoc_options = \{[^\n]*"disableTelemetry":true/.test(html)) {
    throw new Error('build-docs: Redoc telemetry is on; redocly.yaml must say `telemetry: off`');
  }
  return html;
}

/** A 14 px high SVG of `text`, as a data: URL (an <img> cannot use the page's fonts, hence the generic ones). */
function wordmark(width, text) {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="14" viewBox="0 0 ${width} 14">` +
    `<text x="0" y="11.5" font-family="Helvetica,Arial,sans-serif" font-size="12" font-weight="700" fill="#1a1c21">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
