import { getAccount } from '../accounts/account-service.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema/index.js';
import { createInvitation, listPendingInvitations } from '../people/invitations.js';
import { isUserRole, listUsers } from '../people/users.js';
import { required, UsageError } from './args.js';

export interface UserCommandContext {
  db: Database;
  config: Pick<Config, 'siteUrl' | 'siteUrlSource' | 'dashboard'>;
  /** Where a failed email is reported; the JSON on stdout still carries the link. */
  warn?: (message: string) => void;
}

export const USERS_USAGE = `  users invite --account <accountId> --email <email> [--role owner|member]
                                          prints a one-time link (valid 7 days) that lets the person choose a
                                          password; also emails it when SMTP_URL is set ("emailed": true|false)
  users list --account <accountId>        the account's people and its pending invitations`;

export async function runUserCommand(context: UserCommandContext, action: string, flags: Map<string, string>): Promise<unknown> {
  switch (action) {
    case 'invite':
      return invite(context, flags);
    case 'list': {
      const accountId = required(flags, 'account');
      await getAccount(context.db, accountId);
      return { users: await listUsers(context.db, accountId), pendingInvitations: await listPendingInvitations(context.db, accountId) };
    }
    default:
      throw new UsageError(`unknown command "users ${action}"`);
  }
}

/**
 * Owner by default: the operator invites the first person of an account made by `accounts create`, who must be able
 * to manage its people, keys and webhook.
 */
async function invite(context: UserCommandContext, flags: Map<string, string>): Promise<unknown> {
  const role = flags.get('role') ?? 'owner';
  if (!isUserRole(role)) throw new UsageError('--role must be owner or member');
  const account = await getAccount(context.db, required(flags, 'account'));
  const invitation = await createInvitation(context.db, {
    accountId: account.id,
    email: required(flags, 'email'),
    role,
    siteUrl: context.config.siteUrl,
  });
  const printed = {
    id: invitation.id,
    accountId: invitation.accountId,
    email: invitation.email,
    role: invitation.role,
    url: invitation.url,
    expiresAt: invitation.expiresAt,
  };
  const warn = context.warn ?? ((message) => process.stderr.write(`${message}\n`));
  if (context.config.siteUrlSource === 'default') {
    warn(`warning: the link starts with ${context.config.siteUrl}, a guess: SITE_URL is not set here and no server has run on this ` +
      'database yet to record its own. Set SITE_URL to the address people open qroute at if that is not it');
  }
  // Loaded here, not with the CLI: nodemailer added 0.1 s of CPU to every other command's start-up (0.9 s).
  const { createMailer, MailError } = await import('../people/mailer.js');
  const mailer = createMailer(context.config);
  if (!mailer) return printed;
  try {
    await mailer.sendInvitation({ to: invitation.email, url: invitation.url, accountName: account.name });
    return { ...printed, emailed: true };
  } catch (error) {
    if (!(error instanceof MailError)) throw error;
    warn(`warning: ${error.message}; hand the link over yourself`);
    return { ...printed, emailed: false };
  } finally {
    mailer.close();
  }
}
