import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

export async function up(db: Kysely<unknown>): Promise<void> {
  // Before this change a worker whose claim had lapsed still logged its attempt, under the same number as the
  // worker that took the row over. Those rows were real requests, so they are kept and numbered after each other
  // (by number, then by insertion) within their delivery; the delivery's count then covers every logged attempt.
  await sql`
    with duplicated as (
      select delivery_id from webhook_attempts group by delivery_id, attempt_number having count(*) > 1
    ),
    renumbered as (
      select a.id, row_number() over (partition by a.delivery_id order by a.attempt_number, a.id) as attempt_number
      from webhook_attempts a where a.delivery_id in (select delivery_id from duplicated)
    )
    update webhook_attempts a set attempt_number = renumbered.attempt_number
    from renumbered where a.id = renumbered.id and a.attempt_number <> renumbered.attempt_number
  `.execute(db);
  await sql`
    update webhook_deliveries d set attempt_count = logged.attempts
    from (select delivery_id, max(attempt_number) as attempts from webhook_attempts group by delivery_id) logged
    where d.id = logged.delivery_id and d.attempt_count < logged.attempts
  `.execute(db);
  // One log row per attempt: attempts are numbered when claimed, and only the claim's holder records one.
  await sql`alter table webhook_attempts add constraint webhook_attempts_one_per_number unique (delivery_id, attempt_number)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_attempts drop constraint webhook_attempts_one_per_number`.execute(db);
}
