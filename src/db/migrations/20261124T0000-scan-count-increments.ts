import { type Kysely, sql } from 'kysely';
import { WEBHOOKS_DUE_CHANNEL } from './20261122T1200-webhooks.js';

// Frozen once landed: a schema change is a new migration file.

/**
 * The scan path stops writing to qr_codes. Every scan batch used to add to its codes' counters with an UPDATE,
 * whose row lock let only one batch per popular code be in flight: the next one waited for the first's commit
 * (and WAL flush) before it could even start its own. Batches now append their increments to
 * qr_code_scan_increments (no lock, so batches on several connections overlap and share WAL flushes), reads add
 * the increments to the code's counters, and a job folds them into qr_codes every few seconds
 * (src/codes/scan-counts.ts).
 *
 * Scans and outbox rows also lose their foreign keys to qr_codes: each inserted row ran a lookup that locked
 * the code's row FOR KEY SHARE (measured: 2.4 µs of the statement per scan, plus the queued trigger). The keys
 * protected nothing the service relies on, since codes are never deleted (only marked deleted) and every scan is
 * of a code just read. What they did prevent, deleting by hand a code that has scans or deliveries, a
 * trigger on the rare path keeps refusing.
 *
 * The outbox's statement trigger that woke the webhook workers goes: it ran for every scan batch, with or
 * without deliveries (0.25 ms a batch in EXPLAIN ANALYZE, about the cost of writing ten scans), and kept a
 * transition table of every inserted row. The scan batch statement notifies itself when it queued a delivery;
 * every other statement that makes a delivery due already calls pg_notify.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('qr_code_scan_increments')
    .addColumn('qr_code_id', 'text', (c) => c.notNull())
    .addColumn('scans', 'bigint', (c) => c.notNull())
    .addColumn('bot_scans', 'bigint', (c) => c.notNull())
    .execute();
  await sql`create index qr_code_scan_increments_code on qr_code_scan_increments (qr_code_id)`.execute(db);

  await sql`alter table scans drop constraint scans_qr_code_id_fkey`.execute(db);
  await sql`alter table webhook_deliveries drop constraint webhook_deliveries_qr_code_id_fkey`.execute(db);
  await sql`
    create function refuse_deleting_scanned_code() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from scans where qr_code_id = old.id)
        or exists (select 1 from webhook_deliveries where qr_code_id = old.id)
        or exists (select 1 from qr_code_scan_increments where qr_code_id = old.id) then
        raise exception 'qr code % has scans or webhook deliveries: codes are marked deleted (deleted_at), never removed', old.id
          using errcode = 'foreign_key_violation';
      end if;
      return old;
    end
    $$`.execute(db);
  await sql`
    create trigger qr_codes_refuse_deleting_scanned before delete on qr_codes
    for each row execute function refuse_deleting_scanned_code()`.execute(db);

  await sql`drop trigger webhook_deliveries_notify on webhook_deliveries`.execute(db);
  await sql`drop function notify_webhooks_due()`.execute(db);

  // src/ids.ts's newId, in SQL: the scan batch names each webhook delivery as it inserts it, so the scan path
  // makes no id for scans of accounts without a webhook. 11 characters of microsecond time, most significant
  // first, then 15 random characters (75 bits) from the bytes of a version 4 UUID, skipping byte 6, whose high
  // nibble is the version (every other byte has its five low bits random).
  await sql`
    create function qroute_new_id(prefix text, micros bigint) returns text language sql volatile as $$
      select prefix || '_' ||
        (select string_agg(substr(alphabet, ((micros >> (5 * (10 - i))) & 31)::int + 1, 1), '' order by i)
         from generate_series(0, 10) as i) ||
        (select string_agg(substr(alphabet, (get_byte(random.bytes, i) & 31) + 1, 1), '' order by i)
         from (select uuid_send(gen_random_uuid()) as bytes) as random, unnest(array[0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15]) as i)
      from (select '0123456789ABCDEFGHJKMNPQRSTVWXYZ'::text as alphabet) as crockford
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop function qroute_new_id(text, bigint)`.execute(db);
  await sql`
    create function notify_webhooks_due() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from inserted) then
        perform pg_notify(${sql.lit(WEBHOOKS_DUE_CHANNEL)}, '');
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger webhook_deliveries_notify after insert on webhook_deliveries
    referencing new table as inserted
    for each statement execute function notify_webhooks_due()`.execute(db);
  await sql`drop trigger qr_codes_refuse_deleting_scanned on qr_codes`.execute(db);
  await sql`drop function refuse_deleting_scanned_code()`.execute(db);
  await sql`
    update qr_codes c set scan_count = c.scan_count + i.scans, bot_scan_count = c.bot_scan_count + i.bot_scans
    from (select qr_code_id, sum(scans) as scans, sum(bot_scans) as bot_scans from qr_code_scan_increments group by 1) i
    where c.id = i.qr_code_id`.execute(db);
  await db.schema.dropTable('qr_code_scan_increments').execute();
  await sql`alter table webhook_deliveries add constraint webhook_deliveries_qr_code_id_fkey foreign key (qr_code_id) references qr_codes (id)`.execute(db);
  await sql`alter table scans add constraint scans_qr_code_id_fkey foreign key (qr_code_id) references qr_codes (id)`.execute(db);
}
