import { loadConfig } from '../config.js';
import { NoEmbeddedClusterError } from '../db/embedded-postgres.js';
import { createLogger } from '../logger.js';
import { recordedSiteUrl } from '../db/site-url.js';
import { createService } from '../service.js';
import { loadSecretBox } from '../webhooks/secret-box.js';
import { INIT_FLAG, takeInitFlag } from './args.js';
import { isUserError, runBackupCommand, runCommand, USAGE } from './commands.js';
import { AttemptFailedError } from './webhook-commands.js';

/**
 * The admin CLI. It opens the same database as the server (`DATABASE_URL`, or the embedded one in `DATA_DIR`,
 * which it starts itself only when no server is running). Logs go to stderr so stdout stays pure JSON; so does
 * the one line that says which database it uses, since a wrong DATA_DIR is the easiest mistake to make. It
 * creates a database only with --init: pointed at an empty DATA_DIR it stops instead of writing into a new one.
 */
async function main(args: string[]): Promise<number> {
  const { init, argv } = takeInitFlag(args);
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return argv.length === 0 ? 2 : 0;
  }
  const settings = loadConfig();
  const logger = createLogger({ level: 'warn', format: settings.logFormat, destination: process.stderr });
  if (argv[0] === 'backup' || argv[0] === 'restore') {
    // They handle the cluster themselves: a restore must not open (or create) a database in DATA_DIR first.
    try {
      process.stdout.write(`${JSON.stringify(await runBackupCommand(settings, argv, logger), null, 2)}\n`);
      return 0;
    } catch (error) {
      if (!isUserError(error)) throw error;
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
  }
  let service;
  try {
    service = await createService(settings, { role: 'admin', logger, createEmbedded: init });
  } catch (error) {
    if (!(error instanceof NoEmbeddedClusterError)) throw error;
    process.stderr.write(`qroute admin: ${error.message}; to create a new, empty database there, run again with ${INIT_FLAG}\n`);
    return 1;
  }
  process.stderr.write(`qroute admin: using ${service.database.description}\n`);
  try {
    // SITE_URL here wins; else the running server's, so a printed link opens (not localhost, which it rarely is).
    const config = settings.siteUrlSource === 'SITE_URL' ? settings : loadConfig(undefined, { serverSiteUrl: await recordedSiteUrl(service.db) });
    const result = await runCommand({ db: service.db, config, secretBox: () => loadSecretBox(config) }, argv);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    if (error instanceof AttemptFailedError) {
      // What happened is the answer the operator asked for: printed like a success, then a non-zero exit.
      process.stdout.write(`${JSON.stringify(error.outcome, null, 2)}\n`);
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    if (!isUserError(error)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    return 1;
  } finally {
    await service.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
