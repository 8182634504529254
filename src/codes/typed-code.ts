import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { parseCodeName } from './code-input.js';
import type { Actor } from './destination-history.js';
import { checkFileReferences } from './file-references.js';
import { createQrCode, type QrCode } from './qr-code-service.js';
import { type AppContent, CODE_TYPES, type CodeTypeName, type ContentProblem, type FacebookContent, type UrlContent } from './types/index.js';

export type TypedCodeResult = { ok: true; code: QrCode } | { ok: false; problems: ContentProblem[] };

/**
 * Creates a code of any of the seventeen types (the dashboard's forms and the import call this). The content is
 * checked by its type's schema; problems come back with paths under `/content` (and `/name`), nothing is stored.
 * The stored `destination_url` is what the short URL leads to: the URL, the Facebook page, the APP fallback, or
 * for a page type the short URL itself (the landing page is served there).
 */
export async function createTypedCode(
  db: Db,
  input: {
    accountId: string;
    name: string;
    type: CodeTypeName;
    content: unknown;
    actor: Actor;
    siteUrl: string;
    /** The import's key for the row; a live code with it already makes this throw ExternalIdTakenError. */
    externalId?: string;
    /** A saved design (design_templates) of the same account. */
    designTemplateId?: string;
  },
): Promise<TypedCodeResult> {
  const problems: ContentProblem[] = [];
  const name = parseCodeName(input.name);
  if (!name.ok) problems.push({ path: '/name', message: name.message });
  const parsed = CODE_TYPES[input.type].parse(input.content);
  if (!parsed.ok) problems.push(...parsed.problems.map((p) => ({ path: `/content${p.path}`, message: p.message })));
  if (!name.ok || !parsed.ok) return { ok: false, problems };
  // The files are checked in the transaction that stores the code, and stay locked until it commits, so the
  // unreferenced-upload prune cannot delete one in between (checkFileReferences says how).
  return inTransaction(db, async (trx): Promise<TypedCodeResult> => {
    const fileProblems = await checkFileReferences(trx, input.accountId, input.type, parsed.content);
    if (fileProblems.length > 0) return { ok: false, problems: fileProblems };
    const { code } = await createQrCode(trx, {
      accountId: input.accountId,
      name: name.name,
      destinationUrl: destinationOf(input.type, parsed.content, input.siteUrl),
      actor: input.actor,
      typed: { type: input.type, content: parsed.content },
      externalId: input.externalId,
      designTemplateId: input.designTemplateId,
    });
    return { ok: true, code };
  });
}

function destinationOf(type: CodeTypeName, content: unknown, siteUrl: string): string | ((slug: string) => string) {
  return redirectDestination(type, content) ?? ((slug) => `${siteUrl}/r/${slug}`);
}

/** Where a redirect type's short URL leads (the URL, the Facebook page, the APP fallback); undefined for a page type. */
export function redirectDestination(type: string, content: unknown): string | undefined {
  switch (type) {
    case 'URL':
      return (content as UrlContent).url;
    case 'FACEBOOK':
      return (content as FacebookContent).pageUrl;
    case 'APP':
      return (content as AppContent).fallbackUrl;
    default:
      return undefined;
  }
}
