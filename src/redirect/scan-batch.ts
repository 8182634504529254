import type { Database } from '../db/schema/index.js';
import { callStatementFunction, statementFunction } from '../db/statement-functions.js';
import { WEBHOOKS_DUE_CHANNEL } from '../db/channels.js';
import { newId } from '../ids.js';

export interface ScanEvent {
  codeId: string;
  accountId: string;
  at: Date;
  device: string;
  os: string;
  browser: string;
  destinationUrl: string;
  referrerHost: string | null;
  /** ISO 3166-1 alpha-2 country of the scanner's address (never the address), when the geo database knows it. */
  country: string | null;
  /** English name of the region (first subdivision), when the geo database has regions. */
  region: string | null;
  /** English name of the city, when the geo database has cities. */
  city: string | null;
  /** Primary subtag of the first Accept-Language entry, lower case (`de`). */
  language: string | null;
  /**
   * Who scanned, as the day's keyed hash of address and user agent (src/audience/visitor-hash.ts, 32 hexadecimal
   * digits), made while the request was answered so the address never leaves it. Null when the day's secret
   * could not be had (database down as the day began): such a scan's `is_unique` is null, "not known".
   */
  visitor: string | null;
  /** Bots only add to the code's bot counter: no scan row, no webhook. */
  bot: boolean;
  /**
   * How the scan was routed (issue 28, src/routing/): the rule that sent it (its id) or the split's variant (an
   * index into the code's split); both absent or null when the code's own destination answered. Optional so that
   * scans of codes without routing (and journal records of earlier versions) carry nothing extra.
   */
  ruleId?: string | null;
  variant?: number | null;
}

/**
 * How long a batch id is kept in scan_batches (the pruning job deletes it after, src/maintenance/prune.ts). Ids must
 * outlive every rewrite of their batch: retries after an unknown outcome (seconds), and replays of a scan journal
 * left by a stopped process, which may hold committed batches beside uncommitted ones and may be replayed only
 * when an instance starts again, days later. A journal record older than this (less a margin) is not replayed but
 * set aside (scan-journal.ts), so the longer this is, the longer such files stay useful. A row costs about 150
 * bytes with its two index entries, one per batch (up to 500 scans): little beside the scans.
 */
export const SCAN_BATCH_LIFETIME_DAYS = 30;

/**
 * A batch of scans with everything fixed at the moment it is formed: its id and its rows as the statement reads
 * them. Writing it again (after a failure whose outcome is unknown) sends the same bytes, and the batch id makes
 * a second write of a committed batch change nothing.
 */
export interface PreparedScanBatch {
  id: string;
  size: number;
  scans: readonly ScanEvent[];
  /** The batch as the statement's one JSON parameter (`BatchParameter`), serialised natively. */
  rows: string;
}

/**
 * Scans that differ only in their time (and visitor), within one UTC second, as one entry: (codeId, accountId,
 * device, os, browser, destination, referrer host, [times], earliest time, country, region, city, language,
 * [visitors] or null, UTC day, rule id, variant). PostgreSQL stores each entry as one `scan_groups` row per uniqueness (see the migrations
 * 20261125T1839-packed-scans and 20261127T0000-scan-audience): a burst on one poster from one kind of phone is a
 * handful of rows, not a row and two index entries per scan. The second bounds how far a group's times spread,
 * which the readers rely on. A group of one stores no array (its time is `first_at`), which keeps scans spread
 * over many codes as cheap as rows were.
 *
 * Visitors: for a group whose scans' visitors are known, an array aligned with the times holding each scan's
 * visitor when it is the batch's first scan of that code by that visitor that UTC day, else null (a later scan
 * in the same batch can never be unique). The statement offers those to scan_visitors and stores the group whole
 * when its scans are all unique or all not, else split into its unique and not unique scans. A group whose
 * visitors are not known (no secret) sends null and is stored with is_unique null. A group lies in one second,
 * so in one UTC day, which is sent (`2026-11-27`) so that PostgreSQL need not work it out scan by scan.
 */
type ScanGroup = [
  string, string, string, string, string, string, string | null, (string | null)[], string | null,
  string | null, string | null, string | null, string | null, (string | null)[] | null, string | null,
  string | null, number | null,
];

/** Each scanned code's increments (codeId, scans, bot scans), counted here so PostgreSQL does not group. */
type CodeIncrement = [string, number, number];

interface BatchParameter {
  /** Scans by people only: bots add to their code's bot counter and nothing else. */
  scans: ScanGroup[];
  counts: CodeIncrement[];
}

/** `id` is given only when a batch is formed again from the journal (scan-journal.ts): it keeps its first id. */
export function prepareScanBatch(scans: readonly ScanEvent[], id: string = newId('scb')): PreparedScanBatch {
  const groups = new Map<string, ScanGroup>();
  const counts = new Map<string, CodeIncrement>();
  const isoTime = isoTimeWriter();
  /** (UTC day, code, visitor) already offered in this batch: only the first scan of each may be unique. */
  const offered = new Set<string>();
  let last: ScanEvent | undefined;
  let lastGroup: ScanGroup | undefined;
  for (const scan of scans) {
    let count = counts.get(scan.codeId);
    if (!count) counts.set(scan.codeId, (count = [scan.codeId, 0, 0]));
    if (scan.bot) {
      count[2]++;
      continue;
    }
    count[1]++;
    const time = isoTime(scan.at);
    // Most scans of a batch share the previous one's group (the same code and kind of phone, the same strings).
    if (!(last && lastGroup && sameGroup(last, scan))) {
      // NUL occurs in none of these (ids, fixed names, a serialised URL, a host, a number), so two keys are equal
      // only when every field is; a missing referrer is a lone NUL, which no host is.
      // The geo database's names are checked to hold no control character (src/audience/place.ts).
      const key =
        `${scan.codeId}\0${scan.accountId}\0${scan.device}\0${scan.os}\0${scan.browser}\0${scan.destinationUrl}\0${scan.referrerHost ?? '\0'}` +
        `\0${scan.country ?? '\0'}\0${scan.region ?? '\0'}\0${scan.city ?? '\0'}\0${scan.language ?? '\0'}\0${scan.visitor === null ? 'n' : 'v'}\0${secondOf(scan.at)}` +
        `\0${scan.ruleId ?? '\0'}\0${scan.variant ?? '\0'}`;
      lastGroup = groups.get(key);
      if (!lastGroup) {
        groups.set(key, (lastGroup = [
          scan.codeId, scan.accountId, scan.device, scan.os, scan.browser, scan.destinationUrl, scan.referrerHost, [], time,
          scan.country, scan.region, scan.city, scan.language, scan.visitor === null ? null : [], time === null ? null : time.slice(0, 10),
          scan.ruleId ?? null, scan.variant ?? null,
        ]));
      }
    }
    lastGroup[7].push(time);
    if (scan.visitor !== null) {
      const offer = `${dayOf(scan.at)}\0${scan.codeId}\0${scan.visitor}`;
      const first = !offered.has(offer);
      if (first) offered.add(offer);
      lastGroup[13]!.push(first ? scan.visitor : null);
    }
    // Same second, same format: the earliest time is the smallest string.
    if (time !== null && (lastGroup[8] === null || time < lastGroup[8])) lastGroup[8] = time;
    last = scan;
  }
  const parameter: BatchParameter = { scans: [...groups.values()], counts: [...counts.values()] };
  return { id, size: scans.length, scans, rows: JSON.stringify(parameter) };
}

function sameGroup(a: ScanEvent, b: ScanEvent): boolean {
  return (
    a.codeId === b.codeId && a.accountId === b.accountId && a.device === b.device && a.os === b.os &&
    a.browser === b.browser && a.destinationUrl === b.destinationUrl && a.referrerHost === b.referrerHost &&
    a.country === b.country && a.region === b.region && a.city === b.city && a.language === b.language &&
    (a.visitor === null) === (b.visitor === null) && secondOf(a.at) === secondOf(b.at) &&
    (a.ruleId ?? null) === (b.ruleId ?? null) && (a.variant ?? null) === (b.variant ?? null)
  );
}

/** The UTC second a time falls in (NaN for an invalid date: those share a group, whose insert fails as rows did). */
function secondOf(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

/** The UTC day a time falls in, as days since 1970 (what scan_visitors' `day` is, in PostgreSQL's terms). */
function dayOf(at: Date): number {
  return Math.floor(at.getTime() / 86_400_000);
}

const MILLISECONDS = Array.from({ length: 1000 }, (_, ms) => String(ms).padStart(3, '0'));

/**
 * What JSON.stringify writes for a date (`toISOString`), with the part up to the second made once per second:
 * a batch's scans are milliseconds apart, and toISOString cost 0.75 µs a scan, half of what forming a batch cost.
 */
function isoTimeWriter(): (at: Date) => string | null {
  let second = Number.NaN;
  let prefix = '';
  return (at) => {
    const ms = at.getTime();
    if (!Number.isFinite(ms)) return null; // what JSON.stringify writes for an invalid date
    const atSecond = Math.floor(ms / 1000);
    if (atSecond !== second) {
      second = atSecond;
      prefix = new Date(atSecond * 1000).toISOString().slice(0, -4); // up to the '.' before "000Z"
    }
    return `${prefix}${MILLISECONDS[ms - atSecond * 1000]}Z`;
  };
}

/**
 * What both batch statements write once `batch` holds a row: the groups as sent (`g`), the scans offered as their
 * visitor's first of the day (`offered`, those of groups whose visitors are known and whose day's secret still
 * exists), the offered visitors new today (`seen`, inserted into scan_visitors: a scan is unique when its
 * (day, code, visitor) is new there, which concurrent batches of every instance decide through its primary key),
 * which scans that made unique (`fresh`, by group and position), and the `scan_groups` rows.
 *
 * Most groups are stored whole, as sent: every scan unique (all offered and all new, as for a crowd of phones at a
 * poster), none unique, or not known. Only a group with some of each is taken apart scan by scan and stored as two
 * rows, its unique scans and the others; the per-scan work (parsing each time, matching it with `fresh`) is paid
 * there only, not for every scan of every batch (measured: that work was three quarters of the statement).
 *
 * A scan of a day whose secret is gone (visitor_secrets: deleted with the day's scan_visitors once the day has
 * ended, src/audience/visitor-days.ts) cannot be judged any more, so it is stored as not known (null) and offers
 * nothing: only a batch replayed from the journal long after its day meets this.
 */
const SCAN_ROWS = `g as materialized (
      select x.n, e->>0 as c, e->>1 as a, e->>2 as d, e->>3 as o, e->>4 as b, e->>5 as u, e->>6 as r, e->7 as times,
             jsonb_array_length(e->7) as size, (e->>8)::timestamptz as first_at, e->>9 as country, e->>10 as region,
             e->>11 as city, e->>12 as language,
             case when jsonb_typeof(e->13) = 'array' and (e->>14)::date in (select day from visitor_secrets) then e->13 end as offers,
             (e->>14)::date as day, e->>15 as rule_id, (e->>16)::smallint as variant
      from jsonb_array_elements($2::jsonb->'scans') with ordinality as x(e, n)
      where exists (select from batch)
    ),
    offered as materialized (
      select g.n, v.i, g.c, g.day, decode(v.v, 'hex') as visitor
      from g cross join lateral jsonb_array_elements_text(g.offers) with ordinality as v(v, i)
      where v.v is not null
    ),
    seen as (
      insert into scan_visitors (day, qr_code_id, visitor)
      select day, c, visitor from offered
      order by day, c, visitor -- one order everywhere: concurrent batches cannot deadlock on scan_visitors
      on conflict do nothing
      returning day, qr_code_id, visitor
    ),
    fresh as materialized (
      select o.n, o.i from offered o join seen on seen.day = o.day and seen.qr_code_id = o.c and seen.visitor = o.visitor
    ),
    tally as materialized (
      select n, count(*) as uniques from fresh group by n
    ),
    inserted as (
      insert into scan_groups (qr_code_id, device, os, browser, destination_url, referrer_host, country, region, city, language, is_unique, first_at, times, rule_id, variant)
      select g.c, g.d, g.o, g.b, g.u, g.r, g.country, g.region, g.city, g.language,
             case when g.offers is not null then t.uniques is not null end, g.first_at,
             case when g.size > 1 then array(select jsonb_array_elements_text(g.times)::timestamptz) end, g.rule_id, g.variant
      from g left join tally t using (n)
      where g.offers is null or t.uniques is null or t.uniques = g.size
      union all
      select g.c, g.d, g.o, g.b, g.u, g.r, g.country, g.region, g.city, g.language, m.is_unique, m.first_at, m.times, g.rule_id, g.variant
      from (
        select t.n, f.i is not null as is_unique, min(x.t::timestamptz) as first_at,
               case when count(*) > 1 then array_agg(x.t::timestamptz order by x.i) end as times
        from tally t join g using (n)
        cross join lateral jsonb_array_elements_text(g.times) with ordinality as x(t, i)
        left join fresh f on f.n = t.n and f.i = x.i
        where g.offers is not null and t.uniques < g.size
        group by t.n, f.i is not null
      ) as m join g using (n)
    )`;
const CODE_INCREMENTS = `counted as (
      insert into qr_code_scan_increments (qr_code_id, scans, bot_scans, unique_scans)
      select e->>0, (e->>1)::bigint, (e->>2)::bigint, coalesce(u.scans, 0)
      from jsonb_array_elements($2::jsonb->'counts') as e
      left join (select qr_code_id, count(*) as scans from seen group by qr_code_id) as u on u.qr_code_id = e->>0
      where exists (select from batch)
    )`;

/**
 * One statement, so one transaction and one round trip: the batch id, scan groups, outbox rows and counter
 * increments commit together. The batch id goes first with `on conflict do nothing`; when it is already there
 * (an earlier write of this batch committed although its answer was lost), every other part sees no row and
 * writes nothing, so no scan is counted twice, a receiver never sees one scan under two webhook ids, and no visitor
 * is offered again (which would find the batch's own first write and judge its unique scans not unique).
 *
 * Webhook deliveries are made here, only for scans whose account has an enabled endpoint (decided in the same
 * transaction, so a webhook set a moment ago is never missed): the scan path builds no id and no body for
 * accounts without one. The delivery id is newId's format made in SQL (qroute_new_id, stamped with the scan's
 * time); the body's bytes are what JSON.stringify gives for `scanCreatedBody` (src/webhooks/payload.ts; a test
 * compares them), with the code's slug and name as committed when the scan is.
 * Counters grow by appended increments (no row lock on the code), folded into qr_codes by src/codes/scan-counts.ts.
 * The statement itself notifies the webhook workers, and only when it queued a delivery (see the migration
 * 20261124T0000-scan-count-increments).
 */
export const WRITE_SCAN_BATCH = {
  text: `
    with batch as (
      insert into scan_batches (id) values ($1) on conflict do nothing returning id
    ),
    ${SCAN_ROWS},
    deliveries as (
      select qroute_new_id('whd', (extract(epoch from x.t::timestamptz) * 1000000)::bigint) as id, g.a, g.c, x.t,
             x.t::timestamptz as at, g.d, g.o, g.b, g.country, g.language,
             case when g.offers is not null then f.i is not null end as is_unique, q.slug, q.name, g.rule_id, g.variant
      from g
      join webhook_endpoints e on e.account_id = g.a and e.disabled_at is null
      join qr_codes q on q.id = g.c
      cross join lateral jsonb_array_elements_text(g.times) with ordinality as x(t, i)
      left join fresh f on f.n = g.n and f.i = x.i
    ),
    outbox as (
      insert into webhook_deliveries (id, account_id, qr_code_id, event, body, created_at)
      select id, a, c, 'scan.created',
        '{"event":"scan.created","qrCodeId":' || to_json(c)::text || ',"slug":' || to_json(slug)::text ||
        ',"name":' || to_json(name)::text || ',"device":' || to_json(d)::text || ',"os":' || to_json(o)::text ||
        ',"browser":' || to_json(b)::text || ',"id":' || to_json(id)::text || ',"createdAt":' || to_json(t)::text ||
        ',"country":' || coalesce(to_json(country)::text, 'null') || ',"language":' || coalesce(to_json(language)::text, 'null') ||
        ',"unique":' || coalesce(to_json(is_unique)::text, 'null') || ',"ruleId":' || coalesce(to_json(rule_id)::text, 'null') ||
        ',"variant":' || coalesce(to_json(variant)::text, 'null') || '}',
        at
      from deliveries
      returning 1
    ),
    ${CODE_INCREMENTS}
    -- Wakes the webhook workers on commit, only when this batch queued a delivery.
    select pg_notify('${WEBHOOKS_DUE_CHANNEL}', '') from (select from outbox limit 1) as queued`,
};

/**
 * WRITE_SCAN_BATCH without the webhook outbox, for batches whose accounts have no enabled endpoint. PostgreSQL no
 * longer prepares an insert into webhook_deliveries and its indexes for every batch: measured, 87 against 101 µs
 * of CPU for a batch of 3 scans (77 without the check below), and side by side 7 % more redirects a second at 10
 * connections, 4 % at 100.
 * Whether an account has an endpoint is decided here, in the statement's own snapshot, exactly as the full
 * statement's join decides it: if any account of the batch has one, nothing is written (not even the batch id)
 * and the statement returns those accounts, so the batch is written again with WRITE_SCAN_BATCH. A webhook set a
 * moment ago is never missed.
 */
export const WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS = {
  text: `
    with endpoints as materialized (
      select e.account_id from webhook_endpoints e
      where e.disabled_at is null and e.account_id in (select s->>1 from jsonb_array_elements($2::jsonb->'scans') as s)
    ),
    batch as (
      insert into scan_batches (id) select $1 where not exists (select from endpoints)
      on conflict do nothing returning id
    ),
    ${SCAN_ROWS},
    ${CODE_INCREMENTS}
    select array(select account_id from endpoints) as webhook_accounts`,
};

/**
 * The two statements as functions (src/db/statement-functions.ts): planned once per server session, also through
 * PgBouncer in transaction mode, where a prepared statement would be planned again for every batch.
 */
const WRITE_SCAN_BATCH_FUNCTION = statementFunction({
  purpose: 'write_scan_batch', parameterTypes: ['text', 'text'], returns: 'setof void', column: 'notified', text: WRITE_SCAN_BATCH.text,
});
const WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS_FUNCTION = statementFunction({
  purpose: 'write_scan_batch_without_webhooks', parameterTypes: ['text', 'text'], returns: 'setof text[]', column: 'webhook_accounts',
  text: WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS.text,
});

/** Writes a batch with the full statement: always correct, whatever the accounts' webhooks. */
export async function writeScanBatch(db: Database, batch: PreparedScanBatch): Promise<void> {
  await callStatementFunction(db, WRITE_SCAN_BATCH_FUNCTION, [batch.id, batch.rows]);
}

/** How long an account found with a webhook gets the full statement straight away (one round trip, not two). */
const WEBHOOK_ACCOUNT_MEMORY_MS = 60_000;
/** Remembered accounts past which expired ones are swept, so accounts never scanned again are not kept forever. */
const SWEEP_ABOVE = 10_000;

/**
 * Writes scan batches, choosing the statement: the one without the outbox unless an account of the batch was
 * found with a webhook in the last minute. Remembering those accounts only saves the second round trip; it never
 * decides whether a webhook is queued (see WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS). A webhook removed since is
 * forgotten within WEBHOOK_ACCOUNT_MEMORY_MS, and until then those batches take the full statement, which is
 * always right.
 */
export class ScanBatchWriter {
  /** Account id → until when its batches go straight to the full statement. */
  private readonly webhookAccounts = new Map<string, number>();
  readonly stats = { withoutWebhooks: 0, withWebhooks: 0, rewrittenWithWebhooks: 0 };

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {}

  async write(batch: PreparedScanBatch): Promise<void> {
    if (this.mayHaveWebhooks(batch)) {
      await writeScanBatch(this.db, batch);
      this.stats.withWebhooks++;
      return;
    }
    const [result] = await callStatementFunction<{ webhook_accounts: string[] }>(this.db, WRITE_SCAN_BATCH_WITHOUT_WEBHOOKS_FUNCTION, [batch.id, batch.rows]);
    const found = result?.webhook_accounts ?? [];
    if (found.length === 0) {
      this.stats.withoutWebhooks++;
      return;
    }
    const now = this.now();
    for (const accountId of found) this.webhookAccounts.set(accountId, now + WEBHOOK_ACCOUNT_MEMORY_MS);
    // Entries are dropped when their account is scanned after they expire; the rest, now and then here.
    if (this.webhookAccounts.size > SWEEP_ABOVE) {
      for (const [accountId, until] of this.webhookAccounts) if (until <= now) this.webhookAccounts.delete(accountId);
    }
    await writeScanBatch(this.db, batch);
    this.stats.rewrittenWithWebhooks++;
  }

  private mayHaveWebhooks(batch: PreparedScanBatch): boolean {
    if (this.webhookAccounts.size === 0) return false;
    const now = this.now();
    for (const scan of batch.scans) {
      const until = scan.bot ? undefined : this.webhookAccounts.get(scan.accountId);
      if (until === undefined) continue;
      if (until > now) return true;
      this.webhookAccounts.delete(scan.accountId);
    }
    return false;
  }
}
