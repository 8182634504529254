import nodemailer from 'nodemailer';
import { INVITATION_LIFETIME_MS } from './invitations.js';
import { PASSWORD_RESET_LIFETIME_MS } from './password-resets.js';
import { SIGNUP_REQUEST_LIFETIME_MS } from './signup-requests.js';

export interface Mailer {
  sendInvitation(input: { to: string; url: string; accountName: string; invitedBy?: string }): Promise<void>;
  /** Instead of an invitation, to an address that already has a user: it could never accept, and is told why. */
  sendInvitationToTakenEmail(input: { to: string; accountName: string; invitedBy?: string }): Promise<void>;
  sendPasswordReset(input: { to: string; url: string }): Promise<void>;
  /** A sign-up's confirmation link, to the email the form gave. */
  sendSignupConfirmation(input: { to: string; url: string }): Promise<void>;
  /** Instead of a confirmation, to an email that already has a user: how to get in, and that nothing changed. */
  sendSignupTakenNotice(input: { to: string; siteUrl: string }): Promise<void>;
  close(): void;
}

/** The mail server did not take the message; the caller shows the link instead, so nobody is stuck. */
export class MailError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'MailError';
  }
}

/**
 * Each SMTP phase (connect, greeting, any silence after) gives up after this: the mail is sent while a person waits
 * for the page, and a dead mail server must cost them seconds, not nodemailer's default minutes.
 */
export const SMTP_TIMEOUT_MS = 10_000;

/**
 * A mailer over SMTP from `SMTP_URL` (`smtp://` with STARTTLS when the server offers it, `smtps://` for TLS from
 * the first byte; `user:password@` in the URL, percent-encoded), or undefined when SMTP_URL is unset. One connection
 * per message: invitations and resets are rare, and nothing stays open between them.
 */
/** SMTP_URL and MAIL_FROM as config.ts reads them. */
export interface MailSettings {
  smtpUrl: string | undefined;
  mailFrom: string;
}

export function createMailer(
  config: { dashboard: MailSettings },
  options: { timeoutMs?: number } = {},
): Mailer | undefined {
  const { smtpUrl, mailFrom } = config.dashboard;
  if (smtpUrl === undefined) return undefined;
  const timeoutMs = options.timeoutMs ?? SMTP_TIMEOUT_MS;
  const transport = nodemailer.createTransport(
    { url: smtpUrl, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs, dnsTimeout: timeoutMs },
    { from: mailFrom },
  );
  const send = async (message: { to: string; subject: string; text: string; html: string }) => {
    try {
      // The phase timeouts reset on every byte; this bounds a server that drips its answers too.
      await transport.sendMail({ ...message, signal: AbortSignal.timeout(3 * timeoutMs) });
    } catch (error) {
      throw new MailError(`The mail server did not take the message: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
  };
  return {
    sendInvitation: (input) => send({ to: input.to, ...invitationMessage(input) }),
    sendInvitationToTakenEmail: (input) => send({ to: input.to, ...takenEmailInvitationMessage(input) }),
    sendPasswordReset: (input) => send({ to: input.to, ...passwordResetMessage(input) }),
    sendSignupConfirmation: (input) => send({ to: input.to, ...signupConfirmationMessage(input) }),
    sendSignupTakenNotice: (input) => send({ to: input.to, ...signupTakenMessage(input) }),
    close: () => transport.close(),
  };
}

interface MessageBody {
  subject: string;
  text: string;
  html: string;
}

/**
 * The account name is whatever a stranger typed at /signup, so it never speaks for us: it is not in the subject,
 * not in the opening sentence, and comes after the link, on one line, quoted and labelled as the account's own
 * words. A name "URGENT: verify now at http://evil.example" then reads as a name, below the one link we send.
 */
export function invitationMessage(input: { url: string; accountName: string; invitedBy?: string }): MessageBody {
  const days = Math.round(INVITATION_LIFETIME_MS / 86_400_000);
  const lead = 'You are invited to join an account on qroute, a service for QR codes.';
  const action = `To accept, open this link and choose your password. It works once, within ${days} days:`;
  const about = aboutTheAccount(input);
  const ignore = 'If you did not expect this invitation, ignore this email. qroute did not write the account name: follow no other link.';
  return {
    subject: 'Your invitation to an account on qroute',
    text: `${lead}\n\n${action}\n${input.url}\n\n${about.join('\n')}\n\n${ignore}\n`,
    html: html([lead, action, link(input.url, 'Accept the invitation'), ...about, ignore]),
  };
}

/** No link at all: the address already signs in to qroute, and one address belongs to one account. */
export function takenEmailInvitationMessage(input: { accountName: string; invitedBy?: string }): MessageBody {
  const lead =
    'You were invited to join an account on qroute, but this address already signs in to qroute, and one address ' +
    'belongs to one account. To join, ask for an invitation to another address.';
  const about = aboutTheAccount(input);
  const ignore = 'If you did not expect this, ignore this email: nothing changed for your account.';
  return {
    subject: 'An invitation to qroute for an address that already has an account',
    text: `${lead}\n\n${about.join('\n')}\n\n${ignore}\n`,
    html: html([lead, ...about, ignore]),
  };
}

/** The account's name and who invited, each on its own labelled line. */
function aboutTheAccount(input: { accountName: string; invitedBy?: string }): string[] {
  const lines = [`Account name, as its owner typed it: "${quotedField(input.accountName)}"`];
  if (input.invitedBy) lines.push(`Invited by: ${quotedField(input.invitedBy)}`);
  return lines;
}

/**
 * Text someone else chose, as one line of bounded length: line breaks (CR, LF, U+2028/9) and other controls
 * become spaces, so it cannot start a paragraph or a header of its own, whatever the account name holds.
 */
function quotedField(value: string): string {
  const line = oneLine(value);
  return line.length > QUOTED_FIELD_MAX_LENGTH ? `${line.slice(0, QUOTED_FIELD_MAX_LENGTH)}…` : line;
}

/** Account names hold 200 characters at most (ACCOUNT_NAME_MAX_LENGTH); emails 254. */
const QUOTED_FIELD_MAX_LENGTH = 254;

export function passwordResetMessage(input: { url: string }): MessageBody {
  const minutes = Math.round(PASSWORD_RESET_LIFETIME_MS / 60_000);
  const lead = 'Someone, hopefully you, asked to reset the password of your qroute account.';
  const action = `To choose a new password, open this link. It works once, within ${minutes} minutes, and signs you out everywhere:`;
  const ignore = 'If you did not ask for this, ignore this email: your password stays as it is.';
  return {
    subject: 'Reset your qroute password',
    text: `${lead}\n\n${action}\n${input.url}\n\n${ignore}\n`,
    html: html([lead, action, link(input.url, 'Choose a new password'), ignore]),
  };
}

/**
 * Whoever fills in the form chooses the address, so the mail says only what we wrote: no account name (it is
 * shown on the page the link opens, where it can be read as what it is).
 */
export function signupConfirmationMessage(input: { url: string }): MessageBody {
  const hours = Math.round(SIGNUP_REQUEST_LIFETIME_MS / 3_600_000);
  const lead = 'Someone, hopefully you, asked to create a qroute account with this address.';
  const action = `To create it, open this link and choose your password. It works once, within ${hours} hours:`;
  const ignore = 'If you did not ask for this, ignore this email: no account is made without the link.';
  return {
    subject: 'Confirm your new qroute account',
    text: `${lead}\n\n${action}\n${input.url}\n\n${ignore}\n`,
    html: html([lead, action, link(input.url, 'Create the account'), ignore]),
  };
}

export function signupTakenMessage(input: { siteUrl: string }): MessageBody {
  const lead = 'Someone, hopefully you, asked to create a qroute account with this address, but it already has one.';
  const signIn = `Sign in at ${input.siteUrl}/login, or choose a new password at ${input.siteUrl}/password-reset if you forgot it.`;
  const ignore = 'If you did not ask for this, ignore this email: nothing changed for your account.';
  return {
    subject: 'You already have a qroute account',
    text: `${lead}\n\n${signIn}\n\n${ignore}\n`,
    html: html([lead, signIn, ignore]),
  };
}

/** Markup we built ourselves (everything interpolated in it already escaped); plain strings are text. */
interface Markup {
  markup: string;
}

/** Text paragraphs (escaped here) and built markup in a minimal document. */
function html(blocks: Array<string | Markup>): string {
  const body = blocks.map((block) => (typeof block === 'string' ? `<p>${escapeHtml(block)}</p>` : block.markup)).join('\n');
  return `<!doctype html>\n<html><body style="font-family: sans-serif; line-height: 1.5">\n${body}\n</body></html>\n`;
}

/** The link as a button-like anchor and again as text, for mail clients that strip anchors. */
function link(url: string, label: string): Markup {
  const href = escapeHtml(url);
  return { markup: `<p><a href="${href}">${escapeHtml(label)}</a></p>\n<p style="word-break: break-all">${href}</p>` };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A header holds one line; an account name never gets to add headers. */
function oneLine(value: string): string {
  return value.replace(/[\p{Cc}\p{Zl}\p{Zp}]+/gu, ' ').trim();
}
