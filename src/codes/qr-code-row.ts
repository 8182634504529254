import type { Selectable } from 'kysely';
import type { QrCodesTable } from '../db/schema/qr-codes.js';
import { errors } from '../errors.js';
import type { Routing } from '../routing/index.js';
import { idPattern } from '../ids.js';
import { liveScanCount, liveUniqueScanCount } from './scan-counts.js';

export interface QrCode {
  id: string;
  name: string;
  type: string;
  slug: string;
  destinationUrl: string;
  scanCount: number;
  /** The sum over UTC days of the code's visitors that day (docs/dashboard/audience.md). */
  uniqueScanCount: number;
  active: boolean;
  createdAt: Date;
  /** Rules and split (src/routing/); null: every scan goes to `destinationUrl`. */
  routing: Routing | null;
  activeFrom: Date | null;
  expiresAt: Date | null;
  scanLimit: number | null;
  expiredUrl: string | null;
}

/**
 * The columns every read of a code selects from `qr_codes` (unaliased), mapped by `toQrCode`. The scan count
 * includes the increments not folded into the row yet (src/codes/scan-counts.ts).
 */
export const codeColumns = [
  'id', 'name', 'type', 'slug', 'destination_url', liveScanCount.as('scan_count'), liveUniqueScanCount.as('unique_scan_count'), 'active', 'created_at',
  'routing', 'active_from', 'expires_at', 'scan_limit', 'expired_url',
] as const;

type CodeRow = Pick<
  Selectable<QrCodesTable>,
  'id' | 'name' | 'type' | 'slug' | 'destination_url' | 'scan_count' | 'unique_scan_count' | 'active' | 'created_at' | 'routing' | 'active_from' | 'expires_at' | 'scan_limit' | 'expired_url'
>;

export function toQrCode(row: CodeRow): QrCode {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    slug: row.slug,
    destinationUrl: row.destination_url,
    scanCount: row.scan_count,
    uniqueScanCount: row.unique_scan_count,
    active: row.active,
    createdAt: row.created_at,
    // Only ever written from parseRouting's result (src/codes/code-routing.ts).
    routing: (row.routing as Routing | null) ?? null,
    activeFrom: row.active_from,
    expiresAt: row.expires_at,
    scanLimit: row.scan_limit,
    expiredUrl: row.expired_url,
  };
}

const QR_CODE_ID = idPattern('qr');

export function isCodeId(id: string): boolean {
  return QR_CODE_ID.test(id);
}

/**
 * Any path id that is not even shaped like a code id names no code: 404 without a query (and without sending
 * PostgreSQL a string it cannot store, such as one with a NUL character).
 */
export function assertCodeId(id: string): void {
  if (!isCodeId(id)) throw errors.notFound();
}
