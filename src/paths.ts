import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The project root (where package.json is), found from this file whether it runs from `src/` under tsx or
 * from `dist/src/` after a build, so files shipped beside the code (the contract) are found either way.
 */
function findProjectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const PROJECT_ROOT = findProjectRoot();
export const CONTRACT_PATH = path.join(PROJECT_ROOT, 'openapi', 'v1.yaml');

/** The docs portal built by `npm run docs` (served at /docs). */
export const DOCS_DIR = path.join(PROJECT_ROOT, 'docs-dist');
