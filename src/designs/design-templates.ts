import { type ExpressionBuilder, sql } from 'kysely';
import { isLiveCode } from '../db/live-codes.js';
import type { DatabaseSchema, Db } from '../db/schema/index.js';
import { errors } from '../errors.js';
import { idPattern, newId } from '../ids.js';
import type { Design } from '../qr/design/design.js';
import { isInvisibleOnly, singleLineTextProblem } from '../text-rules.js';
import { requireDesign, storedDesign } from './checked-design.js';

export interface DesignTemplate {
  id: string;
  name: string;
  design: Design;
  /** Live codes of the account that follow this template. */
  codeCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export const MAX_TEMPLATE_NAME = 100;

/** The account already has a template of this name (names are unique per account, ignoring case). */
export class TemplateNameTakenError extends Error {
  constructor(readonly templateName: string) {
    super(`a template named "${templateName}" exists already`);
  }
}

/** A template name that is blank or too long. */
export class TemplateNameInvalidError extends Error {}

const TEMPLATE_ID = idPattern('dsn');

/** Live codes following a template: the count a list and a delete confirmation show. */
function followingCodes(eb: ExpressionBuilder<DatabaseSchema, 'design_templates'>) {
  return eb
    .selectFrom('qr_codes')
    .select(sql<number>`count(*)::int`.as('n'))
    .whereRef('qr_codes.design_template_id', '=', 'design_templates.id')
    .where(isLiveCode)
    .$asScalar()
    .as('code_count');
}

export async function listDesignTemplates(db: Db, accountId: string): Promise<DesignTemplate[]> {
  const rows = await db
    .selectFrom('design_templates')
    .select(['id', 'name', 'design', 'created_at', 'updated_at', followingCodes])
    .where('account_id', '=', accountId)
    .orderBy(sql`lower(name)`)
    .orderBy('id')
    .execute();
  return rows.map(toTemplate);
}

/** The account's template `id`; another account's (or a malformed id) is not_found, like a code. */
export async function getDesignTemplate(db: Db, input: { accountId: string; id: string }): Promise<DesignTemplate> {
  if (!TEMPLATE_ID.test(input.id)) throw errors.notFound('No design template with this id.');
  const row = await db
    .selectFrom('design_templates')
    .select(['id', 'name', 'design', 'created_at', 'updated_at', followingCodes])
    .where('account_id', '=', input.accountId)
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (!row) throw errors.notFound('No design template with this id.');
  return toTemplate(row);
}

/** Throws DesignInvalidError (nothing stored) for a design that does not parse or would not scan. */
export async function createDesignTemplate(db: Db, input: { accountId: string; name: string; design: unknown }): Promise<DesignTemplate> {
  const name = templateName(input.name);
  const design = requireDesign(input.design);
  const now = new Date();
  const row = await uniqueName(name, () =>
    db
      .insertInto('design_templates')
      .values({ id: newId('dsn'), account_id: input.accountId, name, design: JSON.stringify(design), created_at: now, updated_at: now })
      .returning(['id', 'name', 'design', 'created_at', 'updated_at', sql<number>`0`.as('code_count')])
      .executeTakeFirstOrThrow(),
  );
  return toTemplate(row);
}

/** A new name, a new design, or both; every code following the template takes the new design at once. */
export async function updateDesignTemplate(
  db: Db,
  input: { accountId: string; id: string; name?: string; design?: unknown },
): Promise<DesignTemplate> {
  const changes: { name?: string; design?: string; updated_at: Date } = { updated_at: new Date() };
  if (input.name !== undefined) changes.name = templateName(input.name);
  if (input.design !== undefined) changes.design = JSON.stringify(requireDesign(input.design));
  if (!TEMPLATE_ID.test(input.id)) throw errors.notFound('No design template with this id.');
  const row = await uniqueName(changes.name ?? '', () =>
    db
      .updateTable('design_templates')
      .set(changes)
      .where('account_id', '=', input.accountId)
      .where('id', '=', input.id)
      .returning(['id', 'name', 'design', 'created_at', 'updated_at', followingCodes])
      .executeTakeFirst(),
  );
  if (!row) throw errors.notFound('No design template with this id.');
  return toTemplate(row);
}

/**
 * Deletes the template; the codes that followed it go back to the default look (the foreign key sets their
 * `design_template_id` to null). Answers how many live codes that was.
 */
export async function deleteDesignTemplate(db: Db, input: { accountId: string; id: string }): Promise<{ codesReturnedToDefault: number }> {
  const template = await getDesignTemplate(db, input);
  const deleted = await db
    .deleteFrom('design_templates')
    .where('account_id', '=', input.accountId)
    .where('id', '=', input.id)
    .executeTakeFirst();
  if (deleted.numDeletedRows === 0n) throw errors.notFound('No design template with this id.');
  return { codesReturnedToDefault: template.codeCount };
}

function templateName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0 || isInvisibleOnly(name)) throw new TemplateNameInvalidError('Give the template a name.');
  if ([...name].length > MAX_TEMPLATE_NAME) throw new TemplateNameInvalidError(`A template name is at most ${MAX_TEMPLATE_NAME} characters.`);
  if (singleLineTextProblem(name) !== undefined) throw new TemplateNameInvalidError('A template name must not contain control characters.');
  return name;
}

async function uniqueName<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const pg = error as { code?: string; constraint?: string };
    if (pg.code === '23505' && pg.constraint === 'design_templates_account_name') throw new TemplateNameTakenError(name);
    throw error;
  }
}

function toTemplate(row: { id: string; name: string; design: unknown; created_at: Date; updated_at: Date; code_count: number }): DesignTemplate {
  return {
    id: row.id,
    name: row.name,
    // Checked when saved; a row no longer valid shows (and renders) as the default look.
    design: storedDesign(row.design) ?? requireDesign({}),
    codeCount: row.code_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
