import { execFile as execFileCallback } from 'node:child_process';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import { BROWSER_TEST_TIMEOUT, SCREENSHOTS } from '../support/browser.js';
import { BROWSER_SUITE_TIMEOUT, useBrowserSuite } from '../support/browser-suite.js';
import type { TestApp } from '../support/test-app.js';

// The functions given to page.evaluate run in the page. The project compiles without the DOM library (so server code
// cannot touch `window` by mistake); these are the few browser globals they use, declared for this file only.
declare const window: { scrollY: number; innerHeight: number; cspViolations: string[] };
declare const document: {
  documentElement: { scrollHeight: number };
  querySelectorAll(selector: string): Iterable<{ scrollWidth: number; clientWidth: number; textContent: string | null }>;
  addEventListener(
    type: 'securitypolicyviolation',
    listener: (event: { violatedDirective: string; blockedURI: string; sourceFile: string; lineNumber: number; columnNumber: number; sample: string }) => void,
  ): void;
};

const execFile = promisify(execFileCallback);

let app: TestApp;
let browser: Browser;

beforeAll(async () => {
  // What `npm start` does first (its prestart: a build only when docs-dist/ is older than the contract, so not after
  // .ci/run's); the build renames the page into place, so other test files building it too is fine.
  await execFile(process.execPath, ['scripts/build-if-stale.mjs', 'docs'], { cwd: PROJECT_ROOT });
}, BROWSER_SUITE_TIMEOUT);
// The docs need no dashboard links: the app as the API tests start it.
useBrowserSuite(
  (suite) => {
    ({ app, browser } = suite);
  },
  { app: 'plain' },
);

interface Visit {
  context: BrowserContext;
  page: Page;
  /** Every URL the page (and its workers) asked for. */
  requests: string[];
  /** Console errors and `securitypolicyviolation` events that name the Content Security Policy. */
  cspViolations(): Promise<string[]>;
}

/** Opens /docs in a fresh browser context and waits until Redoc has rendered the introduction. */
async function openPortal(viewport: { width: number; height: number }): Promise<Visit> {
  const context = await browser.newContext({ viewport });
  // A controllable clock, so a test can run the page's timers ahead (telemetry is sent in batches, seconds later).
  await context.clock.install();
  const requests: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const consoleViolations: string[] = [];
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleViolations.push(message.text());
  });
  // Init scripts are injected by the browser, not by the page, so the page's CSP does not stop this one.
  await page.addInitScript(() => {
    const seen: string[] = [];
    window.cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}:${event.columnNumber} ${event.sample}`),
    );
  });
  await page.goto(`${app.origin}/docs`);
  await expect.poll(() => page.getByRole('heading', { name: 'Quick start' }).isVisible(), { timeout: 20_000 }).toBe(true);
  return {
    context,
    page,
    requests,
    cspViolations: async () => [
      ...consoleViolations,
      ...(await page.evaluate(() => window.cspViolations)),
    ],
  };
}

/** Code blocks of the descriptions (introduction, operations) whose lines run out of sight. */
function clippedCodeBlocks(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll('[data-component-name="Markdown/Markdown"] pre')]
      .filter((pre) => pre.scrollWidth > pre.clientWidth)
      .map((pre) => `${pre.scrollWidth}px in ${pre.clientWidth}px: ${pre.textContent!.slice(0, 60)}`),
  );
}

describe('the docs portal in a browser', () => {
  it('makes no request that leaves the server while a reader scrolls and searches, and breaks no CSP rule', async () => {
    const visit = await openPortal({ width: 1280, height: 800 });
    const { page } = visit;
    try {
      await mkdir(SCREENSHOTS, { recursive: true });
      const screenshot = path.join(SCREENSHOTS, 'docs-portal.png');
      await page.screenshot({ path: screenshot });
      expect((await stat(screenshot)).size).toBeGreaterThan(10_000);

      // Scroll to the end, as a reader would (the page grows while Redoc renders what comes into view).
      await page.mouse.move(640, 400);
      const atBottom = () => page.evaluate(() => window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2);
      await expect.poll(async () => (await atBottom()) || (await page.mouse.wheel(0, 2_000), false), { timeout: 20_000 }).toBe(true);
      await expect.poll(() => page.getByText('/webhook/deliveries/{deliveryId}/redeliver').last().isVisible()).toBe(true);

      // Search (Ctrl+K, as the search box says) and open a hit.
      await page.keyboard.press('Control+k');
      await page.getByPlaceholder('Search docs...').fill('redeliver');
      const hit = page.getByText('Redeliver a webhook').last();
      await expect.poll(() => hit.isVisible(), { timeout: 20_000 }).toBe(true);
      await hit.click();
      await expect.poll(() => page.url()).toBe(`${app.origin}/docs#/webhooks/redeliverwebhookdelivery`);
      await expect.poll(() => page.getByRole('heading', { name: 'Redeliver a webhook' }).isVisible(), { timeout: 20_000 }).toBe(true);

      // Let a minute of the page's timers pass (a telemetry batch would go out now), then fetch a marker from the
      // page: requests are reported in order, so once the marker is seen, whatever the timers sent has been seen too.
      await page.clock.fastForward('01:00');
      const marker = `${app.origin}/api/v1/openapi.json?marker`;
      await page.evaluate((url) => fetch(url).then((response) => response.status), marker);
      await expect.poll(() => visit.requests).toContain(marker);

      const offsite = visit.requests.filter((url) => !url.startsWith(`${app.origin}/`) && !/^(data|blob):/.test(url));
      expect(offsite).toEqual([]);
      expect(visit.requests).toContain(`${app.origin}/docs`);
      expect(await visit.cspViolations()).toEqual([]);
    } finally {
      await visit.context.close();
    }
  }, BROWSER_TEST_TIMEOUT);

  // One visit for what only reads the rendered page (opening the portal is Redoc rendering 2.5 MB in the browser).
  it('shows the servers entry as text, without Markdown syntax, and every line of the code blocks in full, on a laptop and on a phone', async () => {
    const visit = await openPortal({ width: 1280, height: 800 });
    try {
      const servers = visit.page.locator('[data-component-name="Panel/Panel"]', { hasText: 'Servers' }).first();
      await expect.poll(() => servers.innerText()).toContain('http://localhost:3000/api/v1');
      expect(await servers.innerText()).not.toContain('`');

      expect(await visit.page.locator('[data-component-name="Markdown/Markdown"] pre').count()).toBeGreaterThanOrEqual(4);
      expect(await clippedCodeBlocks(visit.page)).toEqual([]);
      await visit.page.setViewportSize({ width: 390, height: 844 });
      await expect.poll(() => clippedCodeBlocks(visit.page)).toEqual([]);
    } finally {
      await visit.context.close();
    }
  }, BROWSER_TEST_TIMEOUT);
});
