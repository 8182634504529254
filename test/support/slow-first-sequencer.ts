import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first (a fresh-clone CI run on 2 cores, 2026-11-26, with the times of the files
 * made quicker since: alone, cli 86 s -> 29 s and the type forms 67 s -> 44 s, so they no longer lead). Without vitest's
 * cache of durations (a fresh clone has none) it starts files largest first, and a slow small file (the contract
 * check runs Optic twice, the property test and the SDK's builds) ran last on one worker while the other sat idle.
 * Starting these first lets the short files fill in around them. A file missing from here only costs that tail
 * again; keep the list short.
 */
const SLOW_FIRST = [
  'test/browser/dashboard-layout.test.ts',
  'test/integration/database-faults.test.ts',
  'test/integration/sdk-package.test.ts',
  'test/integration/sdk.test.ts',
  'test/integration/cli.test.ts',
  'test/integration/property.test.ts',
  'test/contract/compatibility.test.ts',
  'test/integration/import.test.ts',
  'test/browser/landing-pages.test.ts',
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
