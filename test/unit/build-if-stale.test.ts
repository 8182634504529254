import { mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIfStale, TARGETS } from '../../scripts/build-if-stale.mjs';

// `npm start`'s prestart: a built service starts without rebuilding; a fresh clone or a changed source builds.
describe('prestart builds only what is missing or older than its sources', () => {
  let root: string;
  let runs: string[];
  let lines: string[];
  const T0 = new Date('2026-01-01T00:00:00Z');
  const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

  function write(file: string, time: Date, content = 'x'): void {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
    utimesSync(path.join(root, file), time, time);
  }
  function prestart(names: string[] = ['build', 'docs'], succeed = true): boolean {
    return buildIfStale(root, names, {
      run: (_root, script) => {
        runs.push(script);
        if (succeed) write(script === 'build' ? 'dist/src/main.js' : 'docs-dist/index.html', new Date());
        return succeed;
      },
      log: (line) => lines.push(line),
    });
  }

  beforeEach(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'qroute-prestart-'));
    runs = [];
    lines = [];
    for (const file of ['src/main.ts', 'src/db/migrations/0001.ts', 'generated/v1.ts', 'openapi/v1.yaml', 'tsconfig.json', 'scripts/docs.mjs']) {
      write(file, at(0));
    }
    const scripts = { build: 'tsc -p tsconfig.build.json', docs: 'redocly build-docs openapi/v1.yaml && node scripts/docs.mjs' };
    write('package.json', at(0), JSON.stringify({ scripts }));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('builds the code and the docs on a fresh clone, where neither exists', () => {
    expect(prestart()).toBe(true);
    expect(runs).toEqual(['build', 'docs']);
    expect(lines).toEqual(['qroute: building dist/: dist/ has not been built here yet', 'qroute: building docs-dist/: docs-dist/ has not been built here yet']);
  });

  it('skips both when they were built after the last change', () => {
    prestart();
    runs = [];
    lines = [];
    expect(prestart()).toBe(true);
    expect(runs).toEqual([]);
    expect(lines).toEqual(['qroute: dist/ is up to date (npm run build rebuilds it)', 'qroute: docs-dist/ is up to date (npm run docs rebuilds it)']);
  });

  it('rebuilds the code, and only the code, when a source file deep in src/ is newer than the last build', () => {
    prestart();
    const built = statSync(path.join(root, TARGETS.build.stamp)).mtime;
    runs = [];
    lines = [];
    write('src/db/migrations/0002.ts', new Date(built.getTime() + 1000));
    expect(prestart()).toBe(true);
    expect(runs).toEqual(['build']);
    expect(lines[0]).toBe(`qroute: building dist/: ${path.join('src', 'db', 'migrations', '0002.ts')} changed since the last build`);
  });

  it('rebuilds the docs when the contract changed', () => {
    prestart();
    const built = statSync(path.join(root, TARGETS.docs.stamp)).mtime;
    runs = [];
    write('openapi/v1.yaml', new Date(built.getTime() + 1000));
    prestart();
    expect(runs).toEqual(['docs']);
  });

  it('rebuilds the docs when the script their npm script runs changed', () => {
    prestart();
    const built = statSync(path.join(root, TARGETS.docs.stamp)).mtime;
    runs = [];
    write('scripts/docs.mjs', new Date(built.getTime() + 1000), "spawn('redocly', ['--template', 'scripts/docs.hbs'])");
    prestart();
    expect(runs).toEqual(['docs']);
    // ... and when a file that script names (its template) changed.
    runs = [];
    write('scripts/docs.hbs', new Date(built.getTime() + 2000));
    prestart();
    expect(runs).toEqual(['docs']);
  });

  it('builds again when dist/ exists but no build finished there (a failed build leaves no stamp)', () => {
    write('dist/src/main.js', at(10)); // newer than every source, e.g. emitted by a tsc run that failed on type errors
    expect(prestart(['build'], false)).toBe(false);
    expect(runs).toEqual(['build']);
    runs = [];
    expect(prestart(['build'])).toBe(true);
    expect(runs).toEqual(['build']);
  });

  it('stamps a build with the time it started, so a source saved during the build is built next time', () => {
    buildIfStale(root, ['build'], {
      run: () => {
        const savedAt = Date.now() + 1;
        write('src/main.ts', new Date(savedAt));
        // The build goes on after the save (busy for 30 ms: file times come from a clock coarser than Date.now()).
        while (Date.now() <= savedAt + 30);
        return true;
      },
      log: () => {},
    });
    expect(prestart(['build'])).toBe(true);
    expect(runs).toEqual(['build']);
  });

  it('names only sources that exist in the project', () => {
    const projectRoot = path.resolve(import.meta.dirname, '../..');
    for (const target of Object.values(TARGETS)) {
      for (const source of target.sources) expect(statSync(path.join(projectRoot, source), { throwIfNoEntry: false }), source).toBeDefined();
    }
  });
});
