import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { CROCKFORD_ALPHABET, idPattern, newId } from '../../src/ids.js';
import type { TestDatabase } from '../support/database.js';
import { useTestDatabase } from '../support/database.js';

let database: TestDatabase;
useTestDatabase((ready) => (database = ready));

/** qroute_new_id, the id the scan batch gives each webhook delivery in SQL, for each of `micros`. */
async function sqlIds(micros: readonly bigint[]): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    select qroute_new_id('whd', m) as id from unnest(${micros.map(String)}::bigint[]) with ordinality as x(m, n) order by n`.execute(database.db);
  return rows.map((row) => row.id);
}

describe('webhook delivery ids made in SQL (qroute_new_id)', () => {
  it('have newId\'s format and time for any instant, from the epoch to the last microsecond 11 characters hold', async () => {
    const last = 2n ** 55n - 1n;
    const random = Array.from({ length: 500 }, () => BigInt(Math.floor(Math.random() * 2 ** 52)));
    const micros = [0n, 1n, 31n, 32n, BigInt(Date.parse('2026-11-27T09:00:00Z')) * 1000n, ...random, last];
    const ids = await sqlIds(micros);
    for (const [i, id] of ids.entries()) {
      expect(id).toMatch(idPattern('whd'));
      // newId takes a number: exact up to 2^53, and the time part of the last instant is all Zs.
      const expected = micros[i]! === last ? 'Z'.repeat(11) : newId('whd', Number(micros[i]!)).slice(4, 15);
      expect(id.slice(4, 15), `at ${micros[i]}`).toBe(expected);
    }
  });

  it('have 15 random characters: ids of one instant differ, and every character turns up at every position', async () => {
    const ids = await sqlIds(Array.from({ length: 2_000 }, () => 1_764_000_000_000_000n));
    expect(new Set(ids).size).toBe(ids.length);
    // 2,000 draws of 32 characters: a character missing from a position by chance is about e^-62 likely.
    for (let position = 15; position < 30; position++) {
      expect(new Set(ids.map((id) => id[position])).size, `position ${position}`).toBe(CROCKFORD_ALPHABET.length);
    }
  });
});
