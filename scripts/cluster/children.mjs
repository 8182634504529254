// Child processes of `npm run cluster`, each line of their output prefixed with their name.
import { spawn } from 'node:child_process';

/**
 * Starts `command` as a named child. Detached (a process group of its own): a Ctrl-C in the terminal reaches only
 * the cluster script, which then stops its children in order instead of all of them at once.
 * @param {{ name: string, command: string, args: string[], env?: NodeJS.ProcessEnv, cwd?: string,
 *   print: (name: string, line: string) => void }} options
 */
export function startChild({ name, command, args, env, cwd, print }) {
  const child = spawn(command, args, { env, cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  for (const stream of [child.stdout, child.stderr]) {
    let partial = '';
    stream.on('data', (chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) print(name, line);
    });
    stream.on('end', () => {
      if (partial) print(name, partial);
      partial = '';
    });
  }
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => {
      print(name, `could not start: ${error.message}`);
      resolve({ code: null, signal: null, error });
    });
  });
  return {
    name,
    pid: child.pid,
    exited,
    running: () => child.exitCode === null && child.signalCode === null,
    /** SIGTERM (the service drains its requests), then SIGKILL after `graceMs`. */
    stop: async (graceMs = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return exited;
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        print(name, `still running ${graceMs} ms after SIGTERM: SIGKILL`);
        child.kill('SIGKILL');
      }, graceMs);
      const how = await exited;
      clearTimeout(timer);
      return how;
    },
    /** For the last moment of a crashing parent: no waiting. */
    killNow: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
