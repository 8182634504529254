import { sql } from 'kysely';
import { codeLimitOf } from '../accounts/plans.js';
import { newestScanRowsOfCode } from '../db/scan-pages.js';
import { isLiveCodeOf, liveCodesOf } from '../db/live-codes.js';
import type { Db } from '../db/schema/index.js';
import { inTransaction } from '../db/transaction.js';
import { errors } from '../errors.js';
import { microsToDate, newId, nowMicros } from '../ids.js';
import type { Routing } from '../routing/index.js';
import { applyRoutingChanges, type CodeRoutingState, hasRoutingChanges, type RoutingChanges, type RoutingColumns } from './code-routing.js';
import { type Actor, recordDestinationChange } from './destination-history.js';
import { claimIdempotencyKey, hashRequest, storeIdempotentResponse } from './idempotency.js';
import { assertCodeId, codeColumns, type QrCode, toQrCode } from './qr-code-row.js';
import { liveScanCount } from './scan-counts.js';
import { searchQrCodes } from './code-search.js';
import { newSlug } from './slugs.js';
import type { CodeTypeName } from './types/index.js';

export type { QrCode } from './qr-code-row.js';

export interface Scan {
  createdAt: Date;
  device: string;
  os: string;
  browser: string;
  country: string | null;
  region: string | null;
  city: string | null;
  language: string | null;
  /** The visitor's first scan of the code that UTC day; null when not known (recorded before visitors were counted). */
  unique: boolean | null;
  /** The routing rule that answered, or null. */
  ruleId: string | null;
  /** The split variant that answered (index into the split), or null. */
  variant: number | null;
}

/** SPEC: the scans endpoint returns the last 1000 scans. */
export const RECENT_SCANS_LIMIT = 1000;
const SLUG_ATTEMPTS = 5;

/**
 * Expects a name and destination that passed `parseCodeFields` (trimmed, normalized). The first destination goes
 * into the code's history as made by `actor`; a replayed idempotent request returns the first answer and
 * records nothing.
 */
export async function createQrCode(
  db: Db,
  input: {
    accountId: string;
    name: string;
    /** A page type's destination is its own short URL, known once a slug is free: then a function of it. */
    destinationUrl: string | ((slug: string) => string);
    actor: Actor;
    idempotencyKey?: string;
    /** For the dashboard's typed codes: content already parsed by the type's schema (src/codes/types/). */
    typed?: { type: CodeTypeName; content: unknown };
    /** The bulk import's key for the row (1–200 characters): unique among the account's live codes. */
    externalId?: string;
    /** A saved design of the same account that the code follows. */
    designTemplateId?: string;
    /** Rules, split and schedule (checked here: `invalid_body` with a pointer per problem). */
    routing?: RoutingChanges;
  },
): Promise<{ code: QrCode; replayed: boolean }> {
  // Checked before anything is locked: a new code has no stored routing to keep rule ids from.
  const type = input.typed?.type ?? 'URL';
  const given = typeof input.destinationUrl === 'string' ? input.destinationUrl : undefined;
  const routed = input.routing && applyRoutingChanges(
    { type, destinationUrl: given ?? '', routing: null, activeFrom: null, expiresAt: null },
    { ...input.routing, destinationUrl: given },
  );
  return inTransaction(db, async (trx) => {
    const { idempotencyKey, accountId } = input;
    if (idempotencyKey !== undefined) {
      // Only the fields sent: a retry of a request made before codes had routing hashes as it did then.
      const requestHash = hashRequest({ name: input.name, url: input.destinationUrl, ...definedOnly(input.routing ?? {}) });
      const claim = await claimIdempotencyKey(trx, { accountId, key: idempotencyKey, requestHash });
      if (claim.kind === 'key_reused') throw errors.idempotencyKeyReused();
      if (claim.kind === 'replay') return { code: fromStoredCode(claim.body), replayed: true };
    }

    // The row lock makes check-then-increment atomic: concurrent creates of one account queue here.
    const account = await trx
      .selectFrom('accounts')
      .select(['plan', 'code_limit', 'code_count'])
      .where('id', '=', accountId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    // Under the same lock every create of the account takes, so checking first cannot race another create; the
    // unique index stays the backstop. Checked before the limit: an existing code is "skipped", not "over limit".
    if (input.externalId !== undefined) await assertExternalIdFree(trx, accountId, input.externalId);
    const limit = codeLimitOf(account);
    if (account.code_count >= limit) throw errors.planLimitReached(limit, account.code_count);
    await trx.updateTable('accounts').set({ code_count: sql`code_count + 1` }).where('id', '=', accountId).execute();

    const code = await insertWithFreshSlug(trx, {
      accountId,
      name: input.name,
      destinationUrl: given === undefined ? input.destinationUrl : (routed?.destinationUrl ?? given),
      typed: input.typed,
      externalId: input.externalId,
      designTemplateId: input.designTemplateId,
      routing: routed?.columns,
    });
    await recordDestinationChange(trx, { codeId: code.id, previousUrl: null, newUrl: code.destinationUrl, actor: input.actor });
    if (idempotencyKey !== undefined) {
      await storeIdempotentResponse(trx, { accountId, key: idempotencyKey, status: 201, body: code });
    }
    return { code, replayed: false };
  });
}

/** A live code of the account already has this externalId: the import marks the row skipped, never a duplicate. */
export class ExternalIdTakenError extends Error {
  constructor(readonly externalId: string) {
    super(`a live code already has externalId ${JSON.stringify(externalId)}`);
  }
}

async function assertExternalIdFree(trx: Db, accountId: string, externalId: string): Promise<void> {
  const existing = await liveCodesOf(trx, accountId).select('id').where('external_id', '=', externalId).executeTakeFirst();
  if (existing) throw new ExternalIdTakenError(externalId);
}

async function insertWithFreshSlug(
  trx: Db,
  input: {
    accountId: string;
    name: string;
    destinationUrl: string | ((slug: string) => string);
    typed?: { type: CodeTypeName; content: unknown };
    externalId?: string;
    designTemplateId?: string;
    routing?: RoutingColumns;
  },
): Promise<QrCode> {
  // One instant for both, so `createdAt` order and id order agree.
  const micros = nowMicros();
  const now = microsToDate(micros);
  for (let attempt = 0; attempt < SLUG_ATTEMPTS; attempt++) {
    const slug = newSlug();
    const row = await trx
      .insertInto('qr_codes')
      .values({
        id: newId('qr', micros),
        account_id: input.accountId,
        name: input.name,
        slug,
        destination_url: typeof input.destinationUrl === 'string' ? input.destinationUrl : input.destinationUrl(slug),
        ...(input.typed && { type: input.typed.type, content: JSON.stringify(input.typed.content) }),
        ...(input.externalId !== undefined && { external_id: input.externalId }),
        ...(input.designTemplateId !== undefined && { design_template_id: input.designTemplateId }),
        ...input.routing,
        created_at: now,
        updated_at: now,
      })
      // Deleted codes keep their row, so this also keeps a deleted code's slug from ever being handed out again;
      // an erased account's slugs are retired, and a trigger skips the insert just the same (no row: try again).
      .onConflict((oc) => oc.column('slug').doNothing())
      .returning(codeColumns)
      .executeTakeFirst();
    if (row) return toQrCode(row);
  }
  throw new Error(`no free slug after ${SLUG_ATTEMPTS} attempts`);
}

export async function listQrCodes(
  db: Db,
  input: { accountId: string; limit: number; cursor?: string },
): Promise<{ codes: QrCode[]; nextCursor: string | null }> {
  // The dashboard's list without a search or filter: one paging query for both (the contract has checked the
  // cursor is a code id, so the search's own check never refuses one here).
  return searchQrCodes(db, input);
}

export async function getQrCode(db: Db, input: { accountId: string; id: string }): Promise<QrCode> {
  assertCodeId(input.id);
  const row = await liveCodesOf(db, input.accountId).select(codeColumns).where('id', '=', input.id).executeTakeFirst();
  if (!row) throw errors.notFound();
  return toQrCode(row);
}

/**
 * Changes the given fields of a live code. A new destination is recorded in the code's history as made by
 * `actor`, in the same transaction, only when it differs from the current one.
 */
export async function updateQrCode(
  db: Db,
  input: {
    accountId: string;
    id: string;
    changes: { name?: string; destinationUrl?: string; active?: boolean } & RoutingChanges;
    actor: Actor;
  },
): Promise<QrCode> {
  const { name, active, ...routingChanges } = input.changes;
  assertCodeId(input.id);
  return inTransaction(db, async (trx) => {
    // Read under the row lock: of two racing changes the second sees the first one's destination (and rule ids) as
    // previous.
    const routes = hasRoutingChanges(routingChanges);
    const locked = routes || input.changes.destinationUrl !== undefined ? await lockRouting(trx, input, input.changes.destinationUrl !== undefined) : undefined;
    const routed = locked && applyRoutingChanges(locked, routingChanges);
    const previousUrl = locked?.destinationUrl;
    const destinationUrl = routed && routed.destinationUrl !== previousUrl ? routed.destinationUrl : input.changes.destinationUrl;
    const row = await trx
      .updateTable('qr_codes')
      .set({
        ...(name !== undefined && { name }),
        ...(destinationUrl !== undefined && { destination_url: destinationUrl }),
        ...(active !== undefined && { active }),
        ...routed?.columns,
        updated_at: new Date(),
      })
      .where('id', '=', input.id)
      .where(isLiveCodeOf(input.accountId))
      .returning(codeColumns)
      .executeTakeFirst();
    if (!row) throw errors.notFound();
    if (destinationUrl !== undefined && destinationUrl !== previousUrl) {
      await recordDestinationChange(trx, { codeId: input.id, previousUrl: previousUrl!, newUrl: destinationUrl, actor: input.actor });
    }
    return toQrCode(row);
  });
}

/**
 * The code's destination, routing and schedule, locked. Only a URL code has a destination to change (the other types
 * keep theirs in content): `changesUrl` refuses the others.
 */
async function lockRouting(trx: Db, code: { accountId: string; id: string }, changesUrl: boolean): Promise<CodeRoutingState> {
  const row = await liveCodesOf(trx, code.accountId)
    .select(['destination_url', 'type', 'routing', 'active_from', 'expires_at'])
    .where('id', '=', code.id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw errors.notFound();
  if (changesUrl && row.type !== 'URL') throw errors.urlNotApplicable(row.type);
  // Only ever written from parseRouting's result (code-routing.ts).
  return { type: row.type, destinationUrl: row.destination_url, routing: (row.routing as Routing | null) ?? null, activeFrom: row.active_from, expiresAt: row.expires_at };
}

/** The fields given, as JSON would say them (instants as ISO strings), for the idempotency hash. */
function definedOnly(value: RoutingChanges): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== undefined)
      .map(([name, field]) => [name, field instanceof Date ? field.toISOString() : field]),
  );
}

export async function deleteQrCode(db: Db, input: { accountId: string; id: string }): Promise<void> {
  assertCodeId(input.id);
  await inTransaction(db, async (trx) => {
    const deleted = await trx
      .updateTable('qr_codes')
      .set({ deleted_at: new Date() })
      .where('id', '=', input.id)
      .where(isLiveCodeOf(input.accountId))
      .returning('id')
      .executeTakeFirst();
    if (!deleted) throw errors.notFound();
    await trx.updateTable('accounts').set({ code_count: sql`code_count - 1` }).where('id', '=', input.accountId).execute();
  });
}

export async function listRecentScans(
  db: Db,
  input: { accountId: string; id: string },
): Promise<{ total: number; scans: Scan[] }> {
  assertCodeId(input.id);
  const code = await liveCodesOf(db, input.accountId).select(liveScanCount.as('scan_count')).where('id', '=', input.id).executeTakeFirst();
  if (!code) throw errors.notFound();
  return { total: code.scan_count, scans: await newestScansOfCode(db, input.id, RECENT_SCANS_LIMIT) };
}

/** A code's newest scans, newest first (see src/db/scan-pages.ts for what it reads); no ownership check. */
export async function newestScansOfCode(db: Db, codeId: string, limit: number): Promise<Scan[]> {
  const rows = await newestScanRowsOfCode(db, codeId, limit);
  return rows.map((row) => ({
    createdAt: row.created_at,
    device: row.device,
    os: row.os,
    browser: row.browser,
    country: row.country,
    region: row.region,
    city: row.city,
    language: row.language,
    unique: row.is_unique,
    ruleId: row.rule_id,
    variant: row.variant,
  }));
}

/** Idempotent replays are stored as JSON; dates come back as strings. */
function fromStoredCode(stored: unknown): QrCode {
  type Stored = Omit<QrCode, 'createdAt' | 'uniqueScanCount' | 'routing' | 'activeFrom' | 'expiresAt' | 'scanLimit' | 'expiredUrl'> &
    { createdAt: string; uniqueScanCount?: number } & Partial<Pick<QrCode, 'routing' | 'scanLimit' | 'expiredUrl'>> & { activeFrom?: string | null; expiresAt?: string | null };
  const code = stored as Stored;
  // Stored before unique scans were counted or codes were routed: like scanCount, the code as it was when first
  // answered.
  return {
    ...code,
    uniqueScanCount: code.uniqueScanCount ?? 0,
    createdAt: new Date(code.createdAt),
    routing: code.routing ?? null,
    activeFrom: code.activeFrom ? new Date(code.activeFrom) : null,
    expiresAt: code.expiresAt ? new Date(code.expiresAt) : null,
    scanLimit: code.scanLimit ?? null,
    expiredUrl: code.expiredUrl ?? null,
  };
}
