import type { Logger } from 'pino';
import { type Config, ConfigError, loadConfig } from './config.js';
import { loadSecretBox, type SecretBox } from './webhooks/secret-box.js';

/**
 * What the server and the standalone worker share around their work: settings read before anything starts
 * (a bad one exits 2 with its message), a stop that runs once on SIGTERM/SIGINT, and one way to fail to start.
 */
export async function loadStartupSettings(processName: string): Promise<{ config: Config; box: SecretBox }> {
  try {
    const config = loadConfig();
    return { config, box: await loadSecretBox(config) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${processName}: ${error.message}\n`);
    process.exit(2);
  }
}

/**
 * Runs `stop` on the first SIGTERM or SIGINT, then exits 0, or 1 if stopping failed. Later signals are logged and
 * ignored: `npm start` forwards the one it gets, so Ctrl-C (or `kill -- -PGID`, systemd, `docker stop`) delivers
 * two, and a second default action would kill node halfway, leaving scans unwritten and the embedded PostgreSQL
 * running. The handlers stay installed until the process exits, so no signal ever gets the default action.
 */
export function stopOnSignals(stop: (signal: string) => Promise<void>, logger: Logger): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'already shutting down; signal ignored');
      return;
    }
    stopping = true;
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, onSignal);
}

export function runMain(processName: string, main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    process.stderr.write(`${processName} failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
