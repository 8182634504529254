// `npm start`'s prestart: builds dist/ and docs-dist/ only when they are missing or older than their sources, so a
// fresh clone still starts with `npm ci && npm start` while starting a built service takes about a second instead
// of seven. Plain JavaScript on purpose: it runs before anything is compiled and needs no devDependency to decide.
//
// Usage: node scripts/build-if-stale.mjs [build] [docs]   (no argument: both)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * What each output is built from. The stamp is written only after the build succeeded, with the time the build
 * started: a failed build (tsc may emit files before it fails) or a source saved during the build leaves it stale.
 */
export const TARGETS = {
  build: {
    output: 'dist/',
    script: 'build',
    sources: ['src', 'generated', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'],
    stamp: 'dist/.qroute-build-stamp',
  },
  docs: {
    output: 'docs-dist/',
    script: 'docs',
    sources: ['openapi/v1.yaml', 'redocly.yaml', 'package.json', 'package-lock.json'],
    stamp: 'docs-dist/.qroute-build-stamp',
  },
};

/** The newest file under `paths` (files or directories, recursively), or undefined when none exists. */
export function newestSource(root, paths) {
  let newest;
  const visit = (file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      for (const entry of readdirSync(file)) visit(path.join(file, entry));
    } else if (!newest || stat.mtimeMs > newest.mtimeMs) {
      newest = { file: path.relative(root, file), mtimeMs: stat.mtimeMs };
    }
  };
  for (const each of paths) visit(path.join(root, each));
  return newest;
}

/**
 * Project files the npm script itself runs (`node scripts/x.mjs`), and the `scripts/…` files those name (a
 * template): a change to the build's own code rebuilds too.
 */
export function filesNamedByScript(root, script) {
  const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const named = [...(packageJson.scripts?.[script] ?? '').matchAll(/(?:^|\s)(scripts\/[\w./-]+)/g)].map((match) => match[1]);
  const files = new Set(named);
  for (const file of named) {
    const text = statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile() ? readFileSync(path.join(root, file), 'utf8') : '';
    for (const match of text.matchAll(/['"`](scripts\/[\w./-]+)['"`]/g)) files.add(match[1]);
  }
  return [...files];
}

/** Why `target` must be built, or undefined when its stamp is at least as new as every source. */
export function staleReason(root, target) {
  const stamp = statSync(path.join(root, target.stamp), { throwIfNoEntry: false });
  if (!stamp) return `${target.output} has not been built here yet`;
  const newest = newestSource(root, [...target.sources, ...filesNamedByScript(root, target.script)]);
  if (newest && newest.mtimeMs > stamp.mtimeMs) return `${newest.file} changed since the last build`;
  return undefined;
}

/** Builds each stale target with its npm script; returns false when a build failed. */
export function buildIfStale(root, names, { run = runNpmScript, log = (line) => process.stderr.write(`${line}\n`) } = {}) {
  for (const name of names) {
    const target = TARGETS[name];
    if (!target) throw new Error(`unknown target "${name}" (known: ${Object.keys(TARGETS).join(', ')})`);
    const reason = staleReason(root, target);
    if (!reason) {
      log(`qroute: ${target.output} is up to date (npm run ${target.script} rebuilds it)`);
      continue;
    }
    log(`qroute: building ${target.output}: ${reason}`);
    const startedAt = new Date();
    if (!run(root, target.script)) return false;
    const stamp = path.join(root, target.stamp);
    mkdirSync(path.dirname(stamp), { recursive: true });
    writeFileSync(stamp, `built by scripts/build-if-stale.mjs; sources older than this file's mtime are in ${target.output}\n`);
    utimesSync(stamp, startedAt, startedAt);
  }
  return true;
}

function runNpmScript(root, script) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', '--silent', script], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  return result.status === 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  if (!existsSync(path.join(root, 'package.json'))) throw new Error(`no package.json in ${root}`);
  const names = process.argv.slice(2);
  process.exitCode = buildIfStale(root, names.length > 0 ? names : Object.keys(TARGETS)) ? 0 : 1;
}
