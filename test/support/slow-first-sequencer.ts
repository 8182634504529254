import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (a full `vitest run` on the 2-core machine, 2026-11-27: every-type 73 s,
 * layout 50, database-faults 48, landing pages 44, code types 42, start 28, embedded-postgres 26, adaptive webhook
 * concurrency 25, import 25, the contract check 22). Without vitest's cache of durations (a fresh clone has none) it
 * starts files largest first, and a slow small file ran last on one worker while the other sat idle (start.test.ts
 * began 371 s into a 474 s run). Starting these first lets the short files fill in around them. A file missing from
 * here only costs that tail again; keep the list short.
 *
 * Browser files (Chromium keeps a core busy) alternate with files that mostly wait (on a stopped or frozen
 * PostgreSQL, a lease, child processes), so the workers start a mix: with every-type and layout first side by
 * side, both competed for the cores and took 108 and 88 s in a fresh-clone run (73 and 50 s alone).
 */
const SLOW_FIRST = [
  'test/browser/dashboard-every-type.test.ts',
  'test/integration/database-faults.test.ts',
  'test/browser/dashboard-layout.test.ts',
  'test/integration/crash.test.ts',
  'test/browser/landing-pages.test.ts',
  'test/integration/start.test.ts',
  'test/browser/dashboard-code-types.test.ts',
  'test/integration/embedded-postgres.test.ts',
  // Packs the SDK (two tsc builds) and compiles and runs three projects against it: 34 s in a fresh-clone run.
  'test/integration/sdk.test.ts',
  'test/integration/webhook-adaptive-concurrency.test.ts',
  'test/integration/import.test.ts',
  'test/contract/compatibility.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = SLOW_FIRST.findIndex((slow) => file.moduleId.endsWith(`/${slow}`));
      return index === -1 ? SLOW_FIRST.length : index;
    };
    // Stable: files of equal rank (all but the listed ones) keep vitest's own order.
    return sorted.map((file, index) => ({ file, index })).sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index).map(({ file }) => file);
  }
}
