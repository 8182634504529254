import { execFile as execFileCallback } from 'node:child_process';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../../src/paths.js';
import { builtEntry } from './processes.js';

const execFile = promisify(execFileCallback);

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the admin CLI the way an operator does (built, see builtEntry), and reports its exit code and output instead of throwing. */
export async function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const { stdout, stderr } = await execFile(process.execPath, [builtEntry('src/cli/main.ts'), ...args], {
      cwd: PROJECT_ROOT,
      env,
      timeout: 50_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (typeof failed.code !== 'number') throw error; // killed by the timeout, or could not start at all
    return { code: failed.code, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Runs a command that must succeed and returns its parsed JSON. */
export async function runCliJson(args: string[], env: NodeJS.ProcessEnv): Promise<any> {
  const result = await runCli(args, env);
  expect(result, `admin ${args.join(' ')}`).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout);
}
