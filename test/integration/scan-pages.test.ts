import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { newestScanRows, newestScanRowsOfCode, oldestScanRows, type ScanCursor } from '../../src/db/scan-pages.js';
import { newId } from '../../src/ids.js';
import { prepareScanBatch, type ScanEvent, writeScanBatch } from '../../src/redirect/scan-batch.js';
import { type TestDatabase, useTestDatabase } from '../support/database.js';

let database: TestDatabase;
useTestDatabase((created) => (database = created));
let codeId: string;
/** Every scan of the code as the view gives it, oldest first by (time, group, position): what pages must match. */
let truth: Array<{ group_id: number; position: number; created_at: Date; os: string }>;

const KINDS = [
  { device: 'mobile', os: 'iOS', browser: 'Mobile Safari' },
  { device: 'mobile', os: 'Android', browser: 'Chrome' },
  { device: 'tablet', os: 'iPadOS', browser: 'Mobile Safari' },
];

/**
 * Groups of one code that overlap in time the ways real ones do: batches of three kinds of phone interleaved,
 * written out of time order (as two batches at once commit), a batch written late that holds scans of seconds
 * long past (as after an outage), scans exactly on second boundaries and equal times in different groups.
 */
beforeAll(async () => {
  const accountId = newId('acc');
  codeId = newId('qr');
  await sql`insert into accounts (id, name, plan) values (${accountId}, 'Acme', 'business')`.execute(database.db);
  await sql`insert into qr_codes (id, account_id, name, slug, destination_url, created_at, updated_at)
    values (${codeId}, ${accountId}, 'Poster', 'pagesxyz', 'https://example.com/', now(), now())`.execute(database.db);
  const start = Date.parse('2026-05-01T10:00:00.000Z');
  const scan = (ms: number, kind: number): ScanEvent => ({
    codeId, accountId, at: new Date(start + ms), ...KINDS[kind % KINDS.length]!,
    destinationUrl: 'https://example.com/', referrerHost: null, country: null, region: null, city: null, language: null, visitor: null, bot: false,
  });
  // A pseudo-random but fixed walk: times 0–6 s, several per millisecond, each batch spanning about 1.4 s.
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const batches: ScanEvent[][] = [];
  for (let b = 0; b < 12; b++) {
    const from = b * 450;
    batches.push(Array.from({ length: 40 }, (_, i) => scan(from + Math.floor(next() * 1400), i)));
  }
  batches.push([0, 999, 1000, 1000, 2000, 2999].map((ms, i) => scan(ms, i))); // boundaries and ties
  batches.push(Array.from({ length: 30 }, (_, i) => scan(i * 200, i))); // late: seconds the others already hold
  // Written out of order: later times often get lower group ids.
  for (const i of [3, 0, 7, 1, 12, 5, 2, 9, 4, 11, 6, 13, 8, 10]) await writeScanBatch(database.db, prepareScanBatch(batches[i]!));
  const { rows } = await sql<{ group_id: number; position: number; created_at: Date; os: string }>`
    select group_id, position, created_at, os from scans where qr_code_id = ${codeId}
    order by created_at, group_id, position`.execute(database.db);
  truth = rows;
});

const key = (row: { group_id: number; position: number }) => `${row.group_id}.${row.position}`;

describe('scan pages over overlapping groups', () => {
  it('stores the scans packed, every group inside one second and starting at its earliest time', async () => {
    const { rows } = await sql<{ groups: number; scans: number; bad: number; single: number }>`
      select count(*)::int as groups, sum(coalesce(cardinality(times), 1))::int as scans,
             count(*) filter (where times is not null and (first_at <> (select min(t) from unnest(times) as t)
               or (select max(t) from unnest(times) as t) >= date_trunc('second', first_at) + interval '1 second'))::int as bad,
             count(*) filter (where times is null)::int as single
      from scan_groups where qr_code_id = ${codeId}`.execute(database.db);
    expect(rows[0]).toMatchObject({ scans: 12 * 40 + 6 + 30, bad: 0 });
    expect(rows[0]!.groups).toBeLessThan(rows[0]!.scans / 3);
    expect(rows[0]!.single).toBeGreaterThan(0); // groups of one keep their time in first_at alone
    expect(truth).toHaveLength(12 * 40 + 6 + 30);
  });

  it('gives exactly the newest N, newest first, for every N', async () => {
    const newestFirst = [...truth].reverse();
    for (const limit of [1, 2, 5, 17, 40, 100, 333, truth.length, truth.length + 5]) {
      const { rows } = await newestScanRows(codeId, limit).execute(database.db);
      expect(rows.map(key), `limit ${limit}`).toEqual(newestFirst.slice(0, limit).map(key));
      expect((await newestScanRowsOfCode(database.db, codeId, limit)).map(key), `limit ${limit}, two statements`).toEqual(newestFirst.slice(0, limit).map(key));
    }
  });

  it('gives exactly the newest N at or after a time, whichever second it falls in', async () => {
    for (const since of ['2026-05-01T10:00:01.000Z', '2026-05-01T10:00:02.345Z', '2026-05-01T10:00:05.999Z']) {
      const after = [...truth].reverse().filter((row) => row.created_at.getTime() >= Date.parse(since));
      for (const limit of [1, 10, 200, 1000]) {
        const { rows } = await newestScanRows(codeId, limit, new Date(since)).execute(database.db);
        expect(rows.map(key), `since ${since}, limit ${limit}`).toEqual(after.slice(0, limit).map(key));
        const twoStatements = await newestScanRowsOfCode(database.db, codeId, limit, new Date(since));
        expect(twoStatements.map(key), `since ${since}, limit ${limit}, two statements`).toEqual(after.slice(0, limit).map(key));
      }
    }
  });

  it('pages oldest first without a gap or a repeat, whatever the page size', async () => {
    const { rows: [{ last }] } = await sql<{ last: number }>`select max(id)::int as last from scan_groups`.execute(database.db) as { rows: [{ last: number }] };
    for (const pageSize of [1, 3, 7, 40, 101, 1000]) {
      const seen: string[] = [];
      let after: ScanCursor | undefined;
      for (;;) {
        const rows = await oldestScanRows(database.db, codeId, last, pageSize, after);
        seen.push(...rows.map(key));
        if (rows.length < pageSize) break;
        const end = rows[rows.length - 1]!;
        after = { atMicros: Number(end.at_us), groupId: end.group_id, position: Number(end.position) };
      }
      expect(seen, `page size ${pageSize}`).toEqual(truth.map(key));
    }
  });

  it('leaves out groups above the last id it was given, as an export started earlier would', async () => {
    const { rows: ids } = await sql<{ id: number }>`select id from scan_groups order by id`.execute(database.db);
    const last = ids[Math.floor(ids.length / 2)]!.id;
    const rows = await oldestScanRows(database.db, codeId, last, 10_000);
    expect(rows.map(key)).toEqual(truth.filter((row) => row.group_id <= last).map(key));
  });
});
