import { mkdir } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/**
 * Debian's Chromium: its headless shell (`apt-get install chromium-headless-shell`, which .ci/run installs) when there,
 * else the whole browser (`apt-get install chromium`). The shell is the same Blink and V8 without the browser's UI
 * layers, what Playwright itself runs headless tests on; measured on the 2-core machine (2026-11-27), the twelve
 * browser files took 117 s instead of 168 s and a third less CPU, with every assertion passing in both.
 */
export const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => existsSync(file)) ?? '/usr/bin/chromium';

/** A browser on a loaded 2-core machine is slow to start pages; every wait inside a test polls for a condition. */
export const BROWSER_TEST_TIMEOUT = 90_000;

/** Screenshots for people to look at; git-ignored. */
export const SCREENSHOTS = path.join(PROJECT_ROOT, 'test-results');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// The functions given to page.evaluate run in the page. The project compiles without the DOM library (so server
// code cannot touch `window` by mistake); these are the few browser globals the helpers below use.
declare const window: { cspViolations: string[]; axe: { run(context: unknown, options: unknown): Promise<AxeResults> } };
declare const document: {
  readonly body: unknown;
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number }) => void): void;
};

/** A browser context that records every request and every CSP violation its pages see. */
export interface WatchedContext {
  context: BrowserContext;
  /** Every URL any page asked for. */
  requests: string[];
  newPage(): Promise<Page>;
  /** CSP violations reported by any page so far (console messages and securitypolicyviolation events). */
  cspViolations(page: Page): Promise<string[]>;
}

export async function watchedContext(browser: Browser, options: { viewport?: { width: number; height: number } } = {}): Promise<WatchedContext> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const consoleViolations: string[] = [];
  // Init scripts are injected by the browser, not the page, so the page's CSP does not stop this one.
  await context.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return {
    context,
    requests,
    newPage: async () => {
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
      });
      return page;
    },
    cspViolations: async (page) => [...consoleViolations, ...(await page.evaluate(() => window.cspViolations ?? []))],
  };
}

/**
 * Screenshots are for people to look at, and no assertion reads them: each is a render and a PNG encoding in the
 * browser, so they are taken only when asked for, `TEST_SCREENSHOTS=1 npx vitest run test/browser` (into
 * test-results/). A test that checks an image of the page takes it with page.screenshot itself.
 */
export const TAKE_SCREENSHOTS = !['', '0', 'false'].includes(process.env.TEST_SCREENSHOTS ?? '');

/** The whole page (or, with `fullPage: false`, what the viewport shows) as test-results/<name>.png, when asked for. */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? true });
}

/** One element (a map, a chart) as test-results/<name>.png, when asked for. */
export async function screenshotOf(element: Locator, name: string): Promise<void> {
  if (!TAKE_SCREENSHOTS) return;
  await mkdir(SCREENSHOTS, { recursive: true });
  await element.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}

/**
 * Waits until the page is at an address that `matches`, with its document parsed. page.url() changes when a
 * navigation commits, before the new document has any content: reading the page on that signal alone found it
 * empty (a filter link on the analytics page, once in CI). An address changed in place (htmx's history push) counts
 * once it is there.
 */
export async function navigatedTo(page: Page, matches: (url: URL) => boolean): Promise<void> {
  await page.waitForURL(matches, { waitUntil: 'domcontentloaded' });
}

/**
 * The check made on each page a browser test reaches: no serious or critical axe violation (and, given the context
 * that opened the page, no CSP violation), then a screenshot named `name` for people to look at (when asked for).
 */
export async function checkPage(page: Page, name: string, watched?: WatchedContext): Promise<void> {
  expect(await accessibilityViolations(page), name).toEqual([]);
  if (watched) expect(await watched.cspViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The axe rules that report serious or critical violations (axe gives every rule one impact), and are on by default:
 * only they can fail a check, so the minor and moderate ones (28 of 104, the page-wide `region` among them) are not
 * run. From axe-core's own rule list, the one the page gets; fails loudly if a new axe-core keeps it elsewhere.
 */
const SERIOUS_RULES: string[] = (() => {
  const rules = (require('axe-core') as { _audit?: { rules?: Array<{ id: string; impact?: string; enabled?: boolean }> } })._audit?.rules ?? [];
  const serious = rules.filter((rule) => rule.enabled !== false && (rule.impact === 'serious' || rule.impact === 'critical')).map((rule) => rule.id);
  if (serious.length < 40 || !serious.includes('color-contrast')) throw new Error(`axe-core's rules have no impact where test/support/browser.ts looks (found ${serious.length} serious rules)`);
  return serious;
})();

/**
 * axe-core's serious and critical accessibility violations on the page as it is now, as readable lines (empty
 * when there are none), and those of `alsoRules` (moderate rules a test holds the page to) whatever their impact.
 * Evaluated through the browser's devtools protocol, which the page's CSP does not govern.
 */
export async function accessibilityViolations(page: Page, options: { alsoRules?: string[] } = {}): Promise<string[]> {
  const also = options.alsoRules ?? [];
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(
    (rules) => window.axe.run(document, { resultTypes: ['violations'], runOnly: { type: 'rule', values: rules } }),
    [...SERIOUS_RULES, ...also],
  );
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical' || also.includes(violation.id))
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`);
}
