import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { Config } from '../../src/config.js';
import { launchBrowser } from './browser.js';
import { startDashboardApp } from './dashboard.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { startTestApp, type TestApp, type TestAppTuning } from './test-app.js';

/** Starting a database, an app and Chromium on a loaded 2-core machine, plus what `ready` adds (people, codes). */
export const BROWSER_SUITE_TIMEOUT = 120_000;

export interface BrowserSuite {
  database: TestDatabase;
  app: TestApp;
  browser: Browser;
}

export interface BrowserSuiteOptions {
  /** Config the app starts with, over the test defaults (as `startDashboardApp` takes them). */
  overrides?: Partial<Config>;
  tuning?: TestAppTuning;
  /**
   * `dashboard` (the default): SITE_URL is the origin the test browses, so the dashboard's links lead back to it
   * (`startDashboardApp`). `plain`: the test app as API tests start it (`startTestApp`), for pages that need no such links.
   */
  app?: 'dashboard' | 'plain';
}

/**
 * The usual setup of a browser test file, in the style of `useTestApp`: its own database, one app on it and a
 * browser, started before the file's tests and closed after them. `ready` receives them (assign them to the file's
 * variables) and may go on to set up what the file needs (people, codes); it runs within the same time limit.
 */
export function useBrowserSuite(ready: (suite: BrowserSuite) => void | Promise<void>, options: BrowserSuiteOptions = {}): void {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    app =
      options.app === 'plain'
        ? await startTestApp(database, options.overrides, options.tuning)
        : await startDashboardApp(database, options.overrides, options.tuning);
    browser = await launchBrowser();
    await ready({ database, app, browser });
  }, BROWSER_SUITE_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await database?.destroy();
  });
}
