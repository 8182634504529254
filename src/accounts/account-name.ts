import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';

/** The same bounds as a code's name, in code points as there: long enough for any company, short enough for every header it appears in. */
export const ACCOUNT_NAME_MAX_LENGTH = 200;

/** A name parseAccountName refused; the message is a sentence for the person at the form or the CLI. */
export class InvalidAccountNameError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InvalidAccountNameError';
  }
}

/**
 * The account-name rule, the one every way an account is named goes through (sign-up, its confirmation, the admin
 * CLI, createAccount itself): trimmed, 1 to ACCOUNT_NAME_MAX_LENGTH code points, not only invisible characters, and
 * one line of plain text, since it is shown in pages, invitation mails and their subjects (as a code's name).
 * Returns the trimmed name; throws InvalidAccountNameError.
 */
export function parseAccountName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || isInvisibleOnly(name) || [...name].length > ACCOUNT_NAME_MAX_LENGTH) {
    throw new InvalidAccountNameError(`Enter an account name of 1 to ${ACCOUNT_NAME_MAX_LENGTH} characters.`);
  }
  if (singleLineTextProblem(name) !== undefined) {
    throw new InvalidAccountNameError('An account name must not contain control characters or line breaks.');
  }
  return name;
}
