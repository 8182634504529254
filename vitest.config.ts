import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // expect.poll waits for a condition; vitest's default of 1 s failed conditions that take a moment longer on a
    // loaded machine (a preview image rendering while the suite shares 2 cores). A poll ends as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    // `vitest run` runs both; `vitest run --project unit` runs the unit tests alone, with no PostgreSQL started.
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/{integration,contract,browser}/**/*.test.ts'],
          // One embedded PostgreSQL for the whole run; every test file gets its own database cloned from a migrated
          // template. It also builds dist/ when stale: the CLI and the service run as processes from the build.
          globalSetup: ['test/support/global-setup.ts'],
        },
      },
    ],
  },
});
