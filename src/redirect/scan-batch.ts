import { sql } from 'kysely';
import type { Database } from '../db/schema/index.js';
import { newId } from '../ids.js';
import { scanCreatedBody } from '../webhooks/payload.js';

export interface ScanEvent {
  codeId: string;
  accountId: string;
  /** The code's slug and name when it was scanned: what its webhook reports, even if they change later. */
  slug: string;
  name: string;
  at: Date;
  device: string;
  os: string;
  browser: string;
  destinationUrl: string;
  referrerHost: string | null;
  /** Bots only add to the code's bot counter: no scan row, no webhook. */
  bot: boolean;
}

/**
 * A batch of scans with everything fixed at the moment it is formed: its id, the webhook delivery id and body of
 * every human scan, and the per-code counter increments. Writing it again (after a failure whose outcome is
 * unknown) sends the same values, so a receiver never sees one scan under two webhook ids.
 */
export interface PreparedScanBatch {
  id: string;
  size: number;
  scans: readonly ScanEvent[];
  humans: ScanEvent[];
  deliveryIds: string[];
  bodies: string[];
  /** Code ids in sorted order, so concurrent batches lock counter rows in the same order. */
  codeIds: string[];
  humanCounts: number[];
  botCounts: number[];
}

export function prepareScanBatch(scans: readonly ScanEvent[]): PreparedScanBatch {
  const humans = scans.filter((s) => !s.bot);
  const counts = new Map<string, { humans: number; bots: number }>();
  for (const scan of scans) {
    let count = counts.get(scan.codeId);
    if (!count) counts.set(scan.codeId, (count = { humans: 0, bots: 0 }));
    if (scan.bot) count.bots++;
    else count.humans++;
  }
  const codeIds = [...counts.keys()].sort();
  const deliveryIds = humans.map((s) => newId('whd', s.at.getTime() * 1000));
  return {
    id: newId('scb'),
    size: scans.length,
    scans,
    humans,
    deliveryIds,
    // Serialised here, once: every attempt of the delivery sends and signs these bytes. Bodies are built for
    // every human scan; rows are kept only for accounts with an enabled endpoint (the join below).
    bodies: humans.map((s, i) =>
      scanCreatedBody({ deliveryId: deliveryIds[i]!, qrCodeId: s.codeId, slug: s.slug, name: s.name, device: s.device, os: s.os, browser: s.browser, at: s.at }),
    ),
    codeIds,
    humanCounts: codeIds.map((id) => counts.get(id)!.humans),
    botCounts: codeIds.map((id) => counts.get(id)!.bots),
  };
}

/**
 * One statement, so one transaction and one round trip: the batch id, scan rows, outbox rows and counters commit
 * together. The batch id goes first with `on conflict do nothing`; when it is already there (an earlier write
 * of this batch committed although its answer was lost), every other part sees no row and writes nothing.
 */
export async function writeScanBatch(db: Database, batch: PreparedScanBatch): Promise<void> {
  const { humans } = batch;
  await sql`
    with batch as (
      insert into scan_batches (id) values (${batch.id}) on conflict do nothing returning id
    ),
    inserted as (
      insert into scans (qr_code_id, created_at, device, os, browser, destination_url, referrer_host)
      select s.* from unnest(
        ${humans.map((s) => s.codeId)}::text[], ${humans.map((s) => s.at)}::timestamptz[],
        ${humans.map((s) => s.device)}::text[], ${humans.map((s) => s.os)}::text[],
        ${humans.map((s) => s.browser)}::text[], ${humans.map((s) => s.destinationUrl)}::text[],
        ${humans.map((s) => s.referrerHost)}::text[]) as s
      where exists (select from batch)
      returning 1
    ),
    outbox as (
      insert into webhook_deliveries (id, account_id, qr_code_id, event, body, created_at)
      select d.id, d.account_id, d.qr_code_id, 'scan.created', d.body, d.at
      from unnest(${batch.deliveryIds}::text[], ${humans.map((s) => s.accountId)}::text[], ${humans.map((s) => s.codeId)}::text[],
                  ${batch.bodies}::text[], ${humans.map((s) => s.at)}::timestamptz[]) as d(id, account_id, qr_code_id, body, at)
      join webhook_endpoints e on e.account_id = d.account_id and e.disabled_at is null
      where exists (select from batch)
    )
    update qr_codes set scan_count = scan_count + c.humans, bot_scan_count = bot_scan_count + c.bots
    from unnest(${batch.codeIds}::text[], ${batch.humanCounts}::bigint[], ${batch.botCounts}::bigint[]) as c(id, humans, bots)
    where qr_codes.id = c.id and exists (select from batch)
  `.execute(db);
}
