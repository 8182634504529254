import { type Account, createAccount } from '../accounts/account-service.js';
import type { PlanName } from '../accounts/plans.js';
import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';
import { InvalidAccountNameError } from './errors.js';
import { hashPassword } from './passwords.js';
import { insertUser, requireAcceptablePassword, requireEmail, type User } from './users.js';

/** The same bounds as a code's name: long enough for any company, short enough for every header it appears in. */
export const ACCOUNT_NAME_MAX_LENGTH = 200;

/**
 * Self-service sign-up (only when `SIGNUP=open`; the caller checks): a new account on `plan` and its first owner,
 * in one transaction, so a refused email (EmailTakenError) leaves no ownerless account behind. Also
 * InvalidEmailError, UnacceptablePasswordError and InvalidAccountNameError.
 */
export async function signUp(
  db: Db,
  input: { accountName: string; email: string; password: string; plan: PlanName },
): Promise<{ account: Account; user: User }> {
  const name = input.accountName.trim();
  if (name.length === 0 || isInvisibleOnly(name) || name.length > ACCOUNT_NAME_MAX_LENGTH) {
    throw new InvalidAccountNameError(`Enter an account name of 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters.`);
  }
  // It is shown in pages, invitation mails and their subjects: one line of plain text (as a code's name).
  if (singleLineTextProblem(name) !== undefined) {
    throw new InvalidAccountNameError('An account name must not contain control characters or line breaks.');
  }
  const email = requireEmail(input.email);
  const passwordHash = await hashPassword(requireAcceptablePassword(input.password));
  return inTransaction(db, async (trx) => {
    const account = await createAccount(trx, { name, plan: input.plan });
    const user = await insertUser(trx, { accountId: account.id, email, role: 'owner', passwordHash });
    return { account, user };
  });
}
