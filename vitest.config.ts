import { defineConfig } from 'vitest/config';
import SlowFirstSequencer from './test/support/slow-first-sequencer.js';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // On 2 cores vitest's default is one worker (cores - 1): the suite then ran one file at a time while most files
    // wait on PostgreSQL, child processes and browsers. Three, because a third file fills the time the others wait
    // (a 30 s webhook lease, a database restart, a page render): fresh clones of the same commit on the quiet 2-core
    // machine (2026-11-27) took 418 s of vitest with two workers and 362 s with three, every file within its time
    // budget (the slowest test, 40 s, has 120 s). Files take about a quarter longer each, so budgets are set for that.
    maxWorkers: 3,
    // A worker runs file after file with the modules it already loaded, instead of a fresh process per file that
    // loads vitest and src/ again: that reload was 40% of the suite's CPU (916 s of CPU per run, 531 s without).
    // It holds because nothing keeps state at module level (STYLE.md: no globals) and no test mocks modules or
    // changes process.env; a test that must do either belongs in a project of its own with isolate: true.
    isolate: false,
    // expect.poll waits for a condition; vitest's default of 1 s failed conditions that take a moment longer on a
    // loaded machine (a preview image rendering while the suite shares 2 cores). A poll ends as soon as it holds.
    expect: { poll: { timeout: 10_000 } },
    // The slowest files start first, so the last minutes are not one long file on one worker.
    sequence: { sequencer: SlowFirstSequencer },
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
