import { type Kysely, sql } from 'kysely';

// Frozen once landed: a schema change is a new migration file.

/**
 * Issue 12's remaining tables and columns, in one step so the pieces built on them agree:
 *
 * - Designs. `design_templates` are an account's saved designs, by name. A code's look is its own `design`, or
 *   else the template it follows (`design_template_id`: changing the template restyles every code following it),
 *   or else the default design (src/qr/design/design.ts). Deleting a template leaves its codes on the default
 *   look, never without one.
 * - Bulk import. `imports` is one uploaded file, `import_rows` its checked rows; a background job on any instance
 *   claims pending rows, so an import survives a restart and several instances share the work. `external_id` on a
 *   code is the import's idempotency key: unique among an account's live codes.
 * - Branding. An account's colour and logo (a stored file) for its landing pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('design_templates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('design', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index design_templates_account_name on design_templates (account_id, lower(name))`.execute(db);

  await sql`alter table qr_codes add column design jsonb`.execute(db);
  await sql`alter table qr_codes add column design_template_id text references design_templates (id) on delete set null`.execute(db);
  await sql`create index qr_codes_design_template on qr_codes (design_template_id) where design_template_id is not null`.execute(db);
  await sql`alter table qr_codes add column external_id text`.execute(db);
  await sql`alter table qr_codes add constraint qr_codes_external_id_length check (char_length(external_id) between 1 and 200)`.execute(db);
  await sql`create unique index qr_codes_account_external_id on qr_codes (account_id, external_id)
    where external_id is not null and deleted_at is null`.execute(db);

  await db.schema
    .createTable('imports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('created_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('file_name', 'text', (c) => c.notNull())
    // checked: the dry run's report is ready and nothing is created; queued/running: confirmed; then done.
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('checked', 'queued', 'running', 'done', 'cancelled')`))
    .addColumn('row_count', 'integer', (c) => c.notNull().check(sql`row_count >= 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('confirmed_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .execute();
  await sql`create index imports_account on imports (account_id, created_at desc)`.execute(db);
  await sql`create index imports_unfinished on imports (created_at) where status in ('queued', 'running')`.execute(db);

  await db.schema
    .createTable('import_rows')
    .addColumn('import_id', 'text', (c) => c.notNull().references('imports.id').onDelete('cascade'))
    // The line in the uploaded file (the header is line 1), as the report and the result name it.
    .addColumn('line', 'integer', (c) => c.notNull().check(sql`line >= 2`))
    // invalid: refused by the dry run (never created); pending: waiting for the job; created; skipped: its
    // externalId already names a live code; failed: refused when the job reached it (the limit, say).
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status in ('invalid', 'pending', 'created', 'skipped', 'failed')`))
    // The row as checked (type, name, content, design, externalId), so the job creates exactly what was shown.
    .addColumn('input', 'jsonb', (c) => c.notNull())
    .addColumn('problems', 'jsonb')
    .addColumn('qr_code_id', 'text', (c) => c.references('qr_codes.id'))
    .addPrimaryKeyConstraint('import_rows_pkey', ['import_id', 'line'])
    .execute();
  await sql`create index import_rows_pending on import_rows (import_id, line) where status = 'pending'`.execute(db);

  await sql`alter table accounts add column brand_color text`.execute(db);
  await sql`alter table accounts add constraint accounts_brand_color_hex check (brand_color ~ '^#[0-9a-f]{6}$')`.execute(db);
  await sql`alter table accounts add column brand_logo_file_id text references files (id) on delete set null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table accounts drop column brand_logo_file_id`.execute(db);
  await sql`alter table accounts drop constraint accounts_brand_color_hex`.execute(db);
  await sql`alter table accounts drop column brand_color`.execute(db);
  await db.schema.dropTable('import_rows').execute();
  await db.schema.dropTable('imports').execute();
  await sql`drop index qr_codes_account_external_id`.execute(db);
  await sql`alter table qr_codes drop constraint qr_codes_external_id_length`.execute(db);
  await sql`alter table qr_codes drop column external_id`.execute(db);
  await sql`drop index qr_codes_design_template`.execute(db);
  await sql`alter table qr_codes drop column design_template_id`.execute(db);
  await sql`alter table qr_codes drop column design`.execute(db);
  await db.schema.dropTable('design_templates').execute();
}
