import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Slugs of erased accounts (src/accounts/account-erasure.ts). A deleted code keeps its row, which is what kept its
 * slug from being handed out again; an erased account's codes lose theirs, so their slugs are kept here instead:
 * a printed copy of an erased code must never start leading to someone else's destination. Only the slug is
 * kept, nothing that names the account.
 *
 * A code inserted with a retired slug is skipped (the trigger returns no row), exactly as one whose slug is taken
 * is skipped by `on conflict (slug) do nothing`: the creating loop (src/codes/qr-code-service.ts) sees no row and
 * tries another slug. Every way a code is made (API, dashboard, import, an older instance) passes through it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table retired_slugs (
      slug text primary key,
      retired_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create function skip_retired_slug() returns trigger language plpgsql as $$
    begin
      if exists (select 1 from retired_slugs where slug = new.slug) then
        return null;
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger qr_codes_skip_retired_slug before insert on qr_codes
    for each row execute function skip_retired_slug()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger qr_codes_skip_retired_slug on qr_codes`.execute(db);
  await sql`drop function skip_retired_slug()`.execute(db);
  await sql`drop table retired_slugs`.execute(db);
}
