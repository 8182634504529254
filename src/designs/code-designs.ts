import { isLiveCodeOf, liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { errors } from '../errors.js';
import { assertCodeId } from '../codes/qr-code-row.js';
import type { Design } from '../qr/design/design.js';
import { requireDesign, storedDesign } from './checked-design.js';
import { getDesignTemplate } from './design-templates.js';

/**
 * Where a code's look comes from. One source of truth per code: a code has its own design or follows a template
 * or has neither (the default look, what API-created codes have), never both: giving a code its own design stops
 * it following its template, and making it follow a template drops its own design.
 */
export type CodeLook =
  | { source: 'own'; design: Design }
  | { source: 'template'; design: Design; template: { id: string; name: string } }
  | { source: 'default'; design: null };

/** Throws DesignInvalidError (nothing stored) for a design that does not parse or would not scan `text`. */
export async function setCodeDesign(db: Db, input: { accountId: string; codeId: string; design: unknown; text?: string }): Promise<Design> {
  assertCodeId(input.codeId);
  const design = requireDesign(input.design, input.text);
  const updated = await db
    .updateTable('qr_codes')
    .set({ design: JSON.stringify(design), design_template_id: null, updated_at: new Date() })
    .where(isLiveCodeOf(input.accountId))
    .where('id', '=', input.codeId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw errors.notFound();
  return design;
}

/** The code follows the account's template `templateId`, or with null goes back to the default look. */
export async function setCodeTemplate(db: Db, input: { accountId: string; codeId: string; templateId: string | null }): Promise<void> {
  assertCodeId(input.codeId);
  // Checks the template is the account's own: another account's id is not_found, as for a code.
  if (input.templateId !== null) await getDesignTemplate(db, { accountId: input.accountId, id: input.templateId });
  const updated = await db
    .updateTable('qr_codes')
    .set({ design: null, design_template_id: input.templateId, updated_at: new Date() })
    .where(isLiveCodeOf(input.accountId))
    .where('id', '=', input.codeId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) throw errors.notFound();
}

/**
 * Makes every code of `codeIds` that is a live code of the account follow the template, in one statement; ids
 * of other accounts, deleted codes or no code at all are passed over. Answers how many codes now follow it.
 */
export async function applyTemplateToCodes(db: Db, input: { accountId: string; templateId: string; codeIds: readonly string[] }): Promise<number> {
  await getDesignTemplate(db, { accountId: input.accountId, id: input.templateId });
  if (input.codeIds.length === 0) return 0;
  const updated = await db
    .updateTable('qr_codes')
    .set({ design: null, design_template_id: input.templateId, updated_at: new Date() })
    .where(isLiveCodeOf(input.accountId))
    .where('id', 'in', [...new Set(input.codeIds)])
    .executeTakeFirst();
  return Number(updated.numUpdatedRows);
}

/** The look of the account's live code `codeId`; not_found for anyone else's. */
export async function designOfCode(db: Db, accountId: string, codeId: string): Promise<CodeLook> {
  assertCodeId(codeId);
  const looks = await designsOfCodes(db, accountId, [codeId]);
  const look = looks.get(codeId);
  if (!look) throw errors.notFound();
  return look;
}

/** The looks of many codes in one query (a list, an export, a ZIP); codes not found are absent from the map. */
export async function designsOfCodes(db: Db, accountId: string, codeIds: readonly string[]): Promise<Map<string, CodeLook>> {
  const looks = new Map<string, CodeLook>();
  if (codeIds.length === 0) return looks;
  const rows = await liveCodesOf(db, accountId)
    .leftJoin('design_templates', (join) =>
      join.onRef('design_templates.id', '=', 'qr_codes.design_template_id').onRef('design_templates.account_id', '=', 'qr_codes.account_id'),
    )
    .select([
      'qr_codes.id as id',
      'qr_codes.design as own',
      'design_templates.id as template_id',
      'design_templates.name as template_name',
      'design_templates.design as template_design',
    ])
    .where('qr_codes.id', 'in', [...new Set(codeIds)])
    .execute();
  for (const row of rows) looks.set(row.id, lookOf(row));
  return looks;
}

function lookOf(row: { own: unknown; template_id: string | null; template_name: string | null; template_design: unknown }): CodeLook {
  const own = storedDesign(row.own);
  if (own) return { source: 'own', design: own };
  const fromTemplate = storedDesign(row.template_design);
  if (fromTemplate && row.template_id !== null && row.template_name !== null) {
    return { source: 'template', design: fromTemplate, template: { id: row.template_id, name: row.template_name } };
  }
  return { source: 'default', design: null };
}
