import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * A claim token per claim. A claim used to be known by the worker's id and the attempt number, and a claim that
 * a PostgreSQL crash forgot (the worker commits asynchronously) was made again by the same worker with the same
 * number: two attempts under one token, whose outcomes each looked like the holder's. `claim_token` is a random
 * value set by every claim and cleared with it, so a claim made again after a crash is a new claim, and an
 * outcome records only under the claim it was sent for. Null while no claim is held, and on rows claimed by a
 * version before this one (their outcomes are recorded by that version's own check).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column claim_token uuid`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries drop column claim_token`.execute(db);
}
