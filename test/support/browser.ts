import { mkdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

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

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/**
 * The check made on each page a browser test reaches: no serious or critical axe violation (and, given the context
 * that opened the page, no CSP violation), then a screenshot named `name` for people to look at.
 */
export async function checkPage(page: Page, name: string, watched?: WatchedContext): Promise<void> {
  expect(await accessibilityViolations(page), name).toEqual([]);
  if (watched) expect(await watched.cspViolations(page), name).toEqual([]);
  await screenshot(page, name);
}

interface AxeResults {
  violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }>;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious and critical accessibility violations on the page as it is now, as readable lines (empty
 * when there are none). Evaluated through the browser's devtools protocol, which the page's CSP does not govern.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.impact} ${violation.id}: ${violation.help} (${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')})`);
}
