import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One embedded PostgreSQL for the whole run; every test file gets its own database cloned from a migrated template.
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // expect.poll waits for a condition; vitest's default of 1 s failed conditions that take a moment longer on a
    // loaded machine (a preview image rendering while the suite shares 2 cores). A poll ends as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
  },
});
