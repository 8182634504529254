/**
 * Scaffolds a migration: `npm run migration:new -- add-scan-referrer` writes
 * src/db/migrations/<timestamp>-add-scan-referrer.ts and registers it in src/db/migrations/index.ts.
 * Landed migrations are frozen; every schema change is a new file made with this.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../src/paths.js';

const name = process.argv[2];
if (!name || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name)) {
  process.stderr.write('usage: npm run migration:new -- <kebab-case-name>\n');
  process.exit(2);
}
const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 13); // 20261122T1015
const id = `${stamp}-${name}`;
const dir = path.join(PROJECT_ROOT, 'src', 'db', 'migrations');
const file = path.join(dir, `${id}.ts`);
fs.writeFileSync(
  file,
  `import type { Kysely } from 'kysely';\n\n// Frozen once landed: a schema change is a new migration file.\n\n` +
    `export async function up(db: Kysely<unknown>): Promise<void> {\n  void db;\n}\n\n` +
    `export async function down(db: Kysely<unknown>): Promise<void> {\n  void db;\n}\n`,
  { flag: 'wx' },
);
const indexFile = path.join(dir, 'index.ts');
const symbol = name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
let index = fs.readFileSync(indexFile, 'utf8');
index = index.replace(/(import \* as \w+ from '\.\/[^']+';\n)(?!import)/, `$1import * as ${symbol} from './${id}.js';\n`);
index = index.replace(/(\n};\n\nexport const migrationProvider)/, `\n  '${id}': ${symbol},$1`);
fs.writeFileSync(indexFile, index);
process.stdout.write(`created ${path.relative(PROJECT_ROOT, file)}\n`);
