import { execFile as execFileCallback } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';

const execFile = promisify(execFileCallback);
const RELEASED = path.join(PROJECT_ROOT, 'openapi', 'released', 'v1.yaml');
// The `optic` that `npm run check:compat` runs, started by node itself: npx added a second of CPU to each of the
// five checks, and Optic's own ~7 s of CPU per diff of two contracts this size is what is left.
const OPTIC = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'optic');

let dir: string;
let released: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'qroute-compat-'));
  released = await readFile(RELEASED, 'utf8');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs the same Optic check as `npm run check:compat`, against a changed copy of the released contract. */
async function check(changed: string): Promise<{ exitCode: number; output: string }> {
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, changed);
  const args = [OPTIC, 'diff', RELEASED, file, '--check', '--standard', './openapi/compat/standard.yml'];
  try {
    const { stdout, stderr } = await execFile(process.execPath, args, { cwd: PROJECT_ROOT, env: { ...process.env, OPTIC_TELEMETRY_LEVEL: 'off' } });
    return { exitCode: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { exitCode: failed.code, output: failed.stdout + failed.stderr };
  }
}

function without(text: string, from: string, to: string): string {
  const start = text.indexOf(from);
  const end = text.indexOf(to, start + from.length);
  expect(start).toBeGreaterThan(-1);
  expect(end).toBeGreaterThan(start);
  return text.slice(0, start) + text.slice(end);
}

// The current contract itself is checked by `npm run check:compat`, a CI step of its own; these show that the check
// catches what it must and lets additions through (each Optic run is ~10 s of CPU, so as few as show it).
describe('the compatibility check against the released contract', { timeout: 60_000 }, () => {
  // One Optic run for the three kinds of break (each reported on its own), one for an addition.
  it('fails, naming each, when a response field, an operation and an error code are removed', async () => {
    const broken = without(released, '  /webhook/deliveries/{deliveryId}/redeliver:\n', '\nwebhooks:\n')
      .replace(/^ {8}shortUrl:\n(?: {10}.*\n)+/m, '')
      .replace('        - idempotency_key_reused\n', '');
    const result = await check(broken);
    expect(result.exitCode).not.toBe(0);
    expect(result.output).toMatch(/cannot remove response property 'shortUrl'/);
    expect(result.output).toMatch(/cannot remove an operation/);
    expect(result.output).toMatch(/cannot remove 'idempotency_key_reused' from a response enum/);
  });

  it('allows additions: a new optional response field', async () => {
    const result = await check(released.replace(/^( {8}shortUrl:\n)/m, '        printedAt:\n          type: string\n$1'));
    expect(result.exitCode).toBe(0);
  });
});
