#!/usr/bin/env node
// Keeps src/ readable as floors: a module imports only from its own floor or the floors below it, folders never
// import each other in a circle, and no two files import each other, directly or through others.
// `npm run check:layers` (CI runs it); exits 1 with every offending import listed.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');

/**
 * Lowest first. A unit is a folder of src/ or a file directly in it (named without its extension); the dashboard's
 * own folders are units of their own (`dashboard/codes`), so its sections are checked against each other too.
 */
const FLOORS = [
  ['foundation', ['errors', 'ids', 'text-rules', 'destination-url', 'paths', 'net', 'durable-files', 'logger', 'security-headers', 'time-zone-names']],
  ['database', ['db']],
  ['instruments', ['metrics']],
  ['domain', ['routing', 'accounts', 'files', 'codes', 'analytics', 'designs', 'qr', 'people', 'webhooks', 'imports', 'landing', 'audience']],
  ['settings and process', ['config', 'server', 'lifecycle', 'request-log']],
  ['delivery', ['api', 'dashboard/shared', 'dashboard/*', 'dashboard', 'redirect', 'maintenance', 'docs']],
  ['composition', ['app', 'service']],
  ['entry points', ['main', 'worker', 'cli']],
];

/** Inside one floor the order still matters where it is about reading: shared code never knows who uses it. */
const NEVER_IMPORTS = [
  ['dashboard/shared', /^dashboard\/(?!shared$)/, 'the dashboard sections (shared code is below them)'],
  [/^dashboard\/(?!shared$)/, /^dashboard$/, 'the dashboard router (src/dashboard/index.ts mounts the sections)'],
];

function floorOf(unit) {
  for (const [index, [, units]] of FLOORS.entries()) {
    if (units.includes(unit)) return index;
    if (unit.startsWith('dashboard/') && units.includes('dashboard/*')) return index;
  }
  return undefined;
}

function unitOf(file) {
  const parts = path.relative(SRC, file).split(path.sep);
  if (parts.length === 1) return parts[0].replace(/\.tsx?$/, '');
  if (parts[0] === 'dashboard') return parts.length === 2 ? 'dashboard' : `dashboard/${parts[1]}`;
  return parts[0];
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** `./x.js` names x.ts or x.tsx (NodeNext); anything outside src/ (generated/, packages) is not a unit. */
function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx)$/, '');
  for (const candidate of [`${stem}.ts`, `${stem}.tsx`, base, path.join(base, 'index.ts')]) {
    if (candidate.startsWith(SRC + path.sep) && existsSync(candidate) && /\.tsx?$/.test(candidate)) return candidate;
  }
  return undefined;
}

const files = sourceFiles(SRC);
/** file → [{ target, line }] */
const imports = new Map();
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  // TypeScript's own scanner: imports and re-exports of every form (`import type`, `export *`, `import()`), and
  // nothing in comments or strings.
  for (const { fileName, pos } of ts.preProcessFile(text, true, true).importedFiles) {
    if (!fileName.startsWith('.')) continue;
    const target = resolveImport(file, fileName);
    if (target) found.push({ target, line: text.slice(0, pos).split('\n').length });
  }
  imports.set(file, found);
}

const problems = [];
const where = (file, line) => `src/${path.relative(SRC, file)}:${line}`;
const matches = (pattern, unit) => (typeof pattern === 'string' ? pattern === unit : pattern.test(unit));

const unitEdges = new Map(); // unit → Map(unit → first import seen)
for (const [file, found] of imports) {
  const from = unitOf(file);
  const fromFloor = floorOf(from);
  if (fromFloor === undefined) problems.push(`${where(file, 1)}: ${from} is on no floor (add it to FLOORS in scripts/check-layers.mjs)`);
  for (const { target, line } of found) {
    const to = unitOf(target);
    if (to === from) continue;
    const toFloor = floorOf(to);
    if (fromFloor !== undefined && toFloor !== undefined && toFloor > fromFloor) {
      problems.push(`${where(file, line)}: ${from} (${FLOORS[fromFloor][0]}) imports ${to} (${FLOORS[toFloor][0]}), a floor above it`);
    }
    for (const [importer, imported, what] of NEVER_IMPORTS) {
      if (matches(importer, from) && matches(imported, to)) problems.push(`${where(file, line)}: ${from} imports ${what}`);
    }
    if (!unitEdges.has(from)) unitEdges.set(from, new Map());
    if (!unitEdges.get(from).has(to)) unitEdges.get(from).set(to, where(file, line));
  }
}

/** Tarjan's strongly connected components: every component of more than one node is a circle. */
function circles(nodes, next) {
  let index = 0;
  const stack = [];
  const state = new Map();
  const found = [];
  const visit = (node) => {
    state.set(node, { index, low: index, onStack: true });
    index += 1;
    stack.push(node);
    for (const other of next(node)) {
      if (!state.has(other)) {
        visit(other);
        state.get(node).low = Math.min(state.get(node).low, state.get(other).low);
      } else if (state.get(other).onStack) {
        state.get(node).low = Math.min(state.get(node).low, state.get(other).index);
      }
    }
    if (state.get(node).low === state.get(node).index) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        state.get(member).onStack = false;
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component);
    }
  };
  for (const node of nodes) if (!state.has(node)) visit(node);
  return found;
}

for (const component of circles([...unitEdges.keys()], (unit) => unitEdges.get(unit)?.keys() ?? [])) {
  const members = new Set(component);
  const arrows = component.flatMap((unit) =>
    [...(unitEdges.get(unit) ?? [])].filter(([to]) => members.has(to)).map(([to, at]) => `    ${unit} -> ${to} (${at})`),
  );
  problems.push(`folders in a circle: ${component.join(', ')}\n${arrows.join('\n')}`);
}
for (const component of circles(files, (file) => imports.get(file).map(({ target }) => target))) {
  problems.push(`files in a circle: ${component.map((file) => `src/${path.relative(SRC, file)}`).join(', ')}`);
}

if (problems.length > 0) {
  console.error(`${problems.length} layering problem(s):\n${problems.map((problem) => `- ${problem}`).join('\n')}`);
  process.exit(1);
}
const edgeCount = [...imports.values()].reduce((sum, found) => sum + found.length, 0);
console.log(`layers ok: ${files.length} files, ${edgeCount} imports, ${unitEdges.size} folders on ${FLOORS.length} floors, no circles`);
for (const [name, units] of FLOORS) console.log(`  ${name}: ${units.join(' ')}`);
