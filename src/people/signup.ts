import { type Account, createAccount, parseAccountName } from '../accounts/account-service.js';
import type { PlanName } from '../accounts/plans.js';
import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { hashPassword } from './passwords.js';
import { insertUser, requireAcceptablePassword, requireEmail, type User } from './users.js';

/**
 * Self-service sign-up (only when `SIGNUP=open`; the caller checks): a new account on `plan` and its first owner,
 * in one transaction, so a refused email (EmailTakenError) leaves no ownerless account behind. Also
 * InvalidEmailError, UnacceptablePasswordError and InvalidAccountNameError.
 */
export async function signUp(
  db: Db,
  input: { accountName: string; email: string; password: string; plan: PlanName },
): Promise<{ account: Account; user: User }> {
  const name = parseAccountName(input.accountName);
  const email = requireEmail(input.email);
  const passwordHash = await hashPassword(requireAcceptablePassword(input.password));
  return inTransaction(db, async (trx) => {
    const account = await createAccount(trx, { name, plan: input.plan });
    const user = await insertUser(trx, { accountId: account.id, email, role: 'owner', passwordHash });
    return { account, user };
  });
}
