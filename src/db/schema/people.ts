import type { ColumnType, Generated } from 'kysely';

export type UserRole = 'owner' | 'member';

export interface UsersTable {
  id: string;
  account_id: string;
  /** Lower-cased and trimmed; unique across all accounts. */
  email: string;
  role: UserRole;
  /** argon2id PHC string. */
  password_hash: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  password_changed_at: ColumnType<Date, Date | undefined, Date>;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token; the token itself is never stored. */
  token_hash: Buffer;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  /** Absolute expiry, fixed at sign-in. */
  expires_at: Date;
  user_agent: string | null;
}

/** A sign-up waiting for its email's confirmation (src/people/signup-requests.ts). */
export interface SignupRequestsTable {
  token_hash: Buffer;
  email: string;
  /** Null for a notice to an email that already has a user: such a request cannot be confirmed. */
  /** Proposed by the form; the link's holder may change it before the account is made. */
  account_name: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
}

export interface InvitationsTable {
  id: string;
  account_id: string;
  email: string;
  role: UserRole;
  token_hash: Buffer;
  invited_by_user_id: string | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
}

export interface PasswordResetsTable {
  token_hash: Buffer;
  user_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface LoginFailuresTable {
  id: Generated<string>;
  key: string;
  at: ColumnType<Date, Date | undefined, never>;
}

export interface QrCodeDestinationChangesTable {
  id: Generated<string>;
  qr_code_id: string;
  changed_at: ColumnType<Date, Date | undefined, never>;
  previous_url: string | null;
  new_url: string;
  user_id: string | null;
  api_key_id: string | null;
}
