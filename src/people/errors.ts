/**
 * Refusals of the people services. Each message is a sentence meant for the person at the form (the dashboard
 * shows it as is; the admin CLI prints it), so none of them holds a secret, a hash or another account's data.
 * Pages branch on the class, never on the wording.
 */
export class PeopleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidEmailError extends PeopleError {
  constructor() {
    super('Enter an email address like name@example.com.');
  }
}

/** One person signs in with one email, across all accounts (users.email is unique). */
export class EmailTakenError extends PeopleError {
  constructor() {
    super('This email address already belongs to a qroute user.');
  }
}

export class UnacceptablePasswordError extends PeopleError {}

export class WrongPasswordError extends PeopleError {
  constructor() {
    super('The current password is not correct.');
  }
}

/** Unknown, expired, accepted or revoked: the person gets one answer for all four. */
export class InvitationInvalidError extends PeopleError {
  constructor() {
    super('This invitation link is no longer valid. Ask the account owner for a new one.');
  }
}

/** Unknown, expired or used: one answer for all three. */
export class ResetLinkInvalidError extends PeopleError {
  constructor() {
    super('This password reset link is no longer valid. Ask for a new one.');
  }
}

export class UserNotFoundError extends PeopleError {
  constructor() {
    super('No such person in this account.');
  }
}

/** An account always keeps an owner: somebody must be able to manage its people, keys and webhook. */
export class LastOwnerError extends PeopleError {
  constructor() {
    super('An account needs at least one owner. Make someone else an owner first.');
  }
}

/** The account-name rule lives with accounts (parseAccountName); re-exported for the people services' callers. */
export { InvalidAccountNameError } from '../accounts/account-service.js';

/** Unknown, expired or used: one answer for all three. */
export class SignupLinkInvalidError extends PeopleError {
  constructor() {
    super('This confirmation link is no longer valid. Sign up again, or sign in if the account was made.');
  }
}

/** Too many invitation mails from this account, or to this address: see invitation-limit.ts. */
export class InvitationMailLimitError extends PeopleError {
  constructor(
    readonly retryAfterSeconds: number,
    /** Which limit refused it (src/people/invitation-limit.ts): all accounts' mails to the address, this account's to it, or this account's to anyone. */
    readonly limit: 'recipient' | 'accountRecipient' | 'account',
  ) {
    super(
      limit === 'recipient'
        ? 'This address has been sent too many invitations lately.'
        : limit === 'accountRecipient'
          ? 'Your account has sent this address too many invitations lately.'
          : 'Your account has sent too many invitations lately.',
    );
  }
}
