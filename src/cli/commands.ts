import { AccountNotFoundError, createAccount, getAccount, InvalidAccountNameError, parseAccountName, setCodeLimit, setPlan } from '../accounts/account-service.js';
import { createApiKey, revokeApiKey } from '../accounts/api-keys.js';
import { isPlanName, PLAN_NAMES, type PlanName } from '../accounts/plans.js';
import type { Config } from '../config.js';
import type { Logger } from 'pino';
import { pruneExpired } from '../maintenance/prune.js';
import { WebhookNotConfiguredError } from '../webhooks/webhook-settings.js';
import { DeliveryInFlightError, DeliveryNotFoundError } from '../webhooks/delivery-service.js';
import { WebhookUrlError } from '../webhooks/url-guard.js';
import { PeopleError } from '../people/errors.js';
import { optionalInteger, parseFlags, required, UsageError } from './args.js';
import { ACCOUNT_DATA_USAGE, deleteAccount, exportAccountToFile } from './account-data-commands.js';
import { backupEmbedded, restoreEmbedded } from './backup.js';
import { type CommandContext, runWebhookCommand, WEBHOOK_USAGE } from './webhook-commands.js';
import { runUserCommand, USERS_USAGE } from './user-commands.js';

export const USAGE = `Usage: npm run --silent admin -- <command> [flags]

  accounts create --name <name> [--plan ${PLAN_NAMES.join('|')}] [--code-limit <n>]
  accounts show --id <accountId>
  accounts set-plan --id <accountId> --plan <plan>
  accounts set-code-limit --id <accountId> --code-limit <n|default>
${ACCOUNT_DATA_USAGE}
  keys create --account <accountId>      prints the key: the only time it is shown
  keys revoke --id <keyId>
${WEBHOOK_USAGE}
${USERS_USAGE}
  maintenance prune                       deletes what retention says has expired, now, and prints the counts
  backup --out <file>                     copies the embedded database (and DATA_DIR's keys) into a .tar.gz,
                                          while the server runs; with DATABASE_URL use your PostgreSQL's tools
  restore --in <file>                     unpacks a backup into DATA_DIR, which must hold no database yet

Prints JSON on stdout, and on stderr the database it uses. On error prints a message on stderr and exits non-zero.
With the embedded database, a DATA_DIR without one is an error; add --init to create a new, empty one there.`;

/** Runs one admin command and returns what to print as JSON. Throws UsageError for bad input. */
export async function runCommand(
  context: CommandContext & { config: Pick<Config, 'retention' | 'siteUrl' | 'siteUrlSource' | 'dashboard'> },
  argv: string[],
): Promise<unknown> {
  const { db } = context;
  const [group, action, ...rest] = argv;
  const flags = parseFlags(rest);
  if (group === 'webhook') return runWebhookCommand(context, action ?? '', flags);
  if (group === 'users') return runUserCommand(context, action ?? '', flags);
  switch (`${group ?? ''} ${action ?? ''}`) {
    case 'accounts create':
      return createAccount(db, {
        name: accountName(required(flags, 'name')),
        plan: plan(flags.get('plan') ?? 'business'),
        codeLimit: optionalInteger(flags, 'code-limit'),
      });
    case 'accounts show':
      return getAccount(db, required(flags, 'id'));
    case 'accounts set-plan':
      return setPlan(db, required(flags, 'id'), plan(required(flags, 'plan')));
    case 'accounts set-code-limit': {
      const id = required(flags, 'id');
      return setCodeLimit(db, id, required(flags, 'code-limit') === 'default' ? null : optionalInteger(flags, 'code-limit')!);
    }
    case 'accounts export':
      return exportAccountToFile(db, context.config.siteUrl, flags);
    case 'accounts delete':
      return deleteAccount(db, flags);
    case 'keys create':
      await getAccount(db, required(flags, 'account'));
      return createApiKey(db, required(flags, 'account'));
    case 'keys revoke': {
      const id = required(flags, 'id');
      const revoked = await revokeApiKey(db, id);
      if (!revoked) throw new UsageError(`no API key with id ${id}`);
      return revoked;
    }
    case 'maintenance prune': {
      const deleted = await pruneExpired(db, { ...context.config.retention, sessionIdleMs: context.config.dashboard.sessionIdleMs });
      if (!deleted) throw new UsageError('another process is pruning right now; nothing was deleted here, try again in a minute');
      return { deleted };
    }
    default:
      throw new UsageError(argv.length === 0 ? 'no command given' : `unknown command "${argv.slice(0, 2).join(' ')}"`);
  }
}

/** The rule sign-up applies too: one line of text (it is shown in pages and invitation mails). */
/** The account-name rule of every other way in (parseAccountName), its refusal worded for a flag. */
function accountName(value: string): string {
  try {
    return parseAccountName(value);
  } catch (error) {
    if (error instanceof InvalidAccountNameError) throw new UsageError(`--name: ${error.message}`);
    throw error;
  }
}

/** `backup --out <file>` and `restore --in <file>`, for the embedded database only. */
export async function runBackupCommand(config: Pick<Config, 'databaseUrl' | 'dataDir'>, argv: string[], logger: Logger): Promise<unknown> {
  const [command, ...rest] = argv;
  const flags = parseFlags(rest);
  if (config.databaseUrl) {
    throw new UsageError(`${command} is for the embedded database; with DATABASE_URL use your PostgreSQL's own tools (pg_dump and ` +
      "pg_restore of the server's major version, pg_basebackup, or your provider's snapshots), together with WEBHOOK_SECRET_KEY");
  }
  if (command === 'backup') return backupEmbedded(config.dataDir, required(flags, 'out'), logger);
  return restoreEmbedded(config.dataDir, required(flags, 'in'), logger);
}

function plan(value: string): PlanName {
  if (!isPlanName(value)) throw new UsageError(`--plan must be one of ${PLAN_NAMES.join(', ')}`);
  return value;
}

export function isUserError(error: unknown): error is Error {
  return (
    error instanceof UsageError ||
    error instanceof AccountNotFoundError ||
    error instanceof WebhookUrlError ||
    error instanceof WebhookNotConfiguredError ||
    error instanceof DeliveryNotFoundError ||
    error instanceof DeliveryInFlightError ||
    error instanceof PeopleError
  );
}
