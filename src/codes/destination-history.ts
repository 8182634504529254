import { liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { errors } from '../errors.js';
import { assertCodeId } from './qr-code-row.js';

/** Who makes a change: a person in the dashboard, or a caller of the API with one of the account's keys. */
export type Actor = { kind: 'api_key'; apiKeyId: string } | { kind: 'user'; userId: string };

/** An actor as a history shows it. */
export type ShownActor =
  /** `userId` and `email` are null once the person has been removed (the row keeps the change, not the person). */
  | { kind: 'user'; userId: string | null; email: string | null }
  /** `label` is `qrk_AbCd…wxyz` (prefix…last four), what the key list shows; `name` what its maker called it. */
  | { kind: 'api_key'; apiKeyId: string; label: string; name: string | null };

export interface DestinationChange {
  changedAt: Date;
  /** Null for the first destination, set when the code was created. */
  previousUrl: string | null;
  newUrl: string;
  actor: ShownActor;
}

/** Records one change of destination; call it in the transaction that makes the change, so neither exists alone. */
export async function recordDestinationChange(
  trx: Db,
  input: { codeId: string; previousUrl: string | null; newUrl: string; actor: Actor },
): Promise<void> {
  await trx
    .insertInto('qr_code_destination_changes')
    .values({
      qr_code_id: input.codeId,
      previous_url: input.previousUrl,
      new_url: input.newUrl,
      user_id: input.actor.kind === 'user' ? input.actor.userId : null,
      api_key_id: input.actor.kind === 'api_key' ? input.actor.apiKeyId : null,
    })
    .execute();
}

/** The destinations of one of the account's codes, newest first; 404 for another account's or a deleted code. */
export async function listDestinationChanges(
  db: Db,
  input: { accountId: string; codeId: string; limit: number },
): Promise<DestinationChange[]> {
  assertCodeId(input.codeId);
  const code = await liveCodesOf(db, input.accountId).select('id').where('id', '=', input.codeId).executeTakeFirst();
  if (!code) throw errors.notFound();
  const rows = await db
    .selectFrom('qr_code_destination_changes as c')
    .leftJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('api_keys as k', 'k.id', 'c.api_key_id')
    .select([
      'c.changed_at',
      'c.previous_url',
      'c.new_url',
      'c.user_id',
      'u.email',
      'c.api_key_id',
      'k.prefix',
      'k.last_four',
      'k.name as key_name',
    ])
    .where('c.qr_code_id', '=', input.codeId)
    // Each change of a code holds the code's row lock while it inserts, so for one code the identity column
    // follows the order of the changes, even two within one clock tick.
    .orderBy('c.id', 'desc')
    .limit(input.limit)
    .execute();
  return rows.map((row) => ({
    changedAt: row.changed_at,
    previousUrl: row.previous_url,
    newUrl: row.new_url,
    actor:
      row.api_key_id !== null
        ? { kind: 'api_key', apiKeyId: row.api_key_id, label: `${row.prefix}…${row.last_four}`, name: row.key_name }
        : { kind: 'user', userId: row.user_id, email: row.email },
  }));
}
