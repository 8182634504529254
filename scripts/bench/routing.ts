/**
 * `npx tsx scripts/bench/routing.ts`: what routing costs the redirect per scan (issue 28), without HTTP or a
 * database: routeScan over a 20-rule routing whose LAST rule matches, every earlier rule failing only on its local
 * hours (the worst case: each reads the list conditions, the window and the local clock). Reported in microseconds
 * per call, the median of ROUNDS rounds of CALLS calls each, for:
 * - scans a millisecond apart (most share a minute: the usual case, local time read from the per-minute memory);
 * - scans a minute apart (every call reads local time through Intl anew: the memory never helps);
 * - the split fallback of a routing whose rules all fail (hashing the visitor to a bucket).
 */
import { compileRouting, parseRouting, routeScan, type ScanFacts } from '../../src/routing/index.js';

const CALLS = Number(process.env.CALLS ?? 200_000);
const ROUNDS = Number(process.env.ROUNDS ?? 7);

let nextId = 0;
const parsed = parseRouting(
  {
    timeZone: 'Europe/Berlin',
    rules: Array.from({ length: 20 }, (_, i) => ({
      name: `rule ${i}`,
      when: {
        os: ['iOS', 'Android'],
        devices: ['mobile', 'tablet'],
        countries: ['DE', 'AT', 'CH'],
        languages: ['de', 'en'],
        weekdays: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'],
        // Rules 0–18 hold 03:00–04:00 only; the last one all day but 04:00–05:00.
        hours: i < 19 ? { from: '03:00', until: '04:00' } : { from: '05:00', until: '04:00' },
      },
      destinationUrl: `https://example.com/rule-${i}`,
    })),
    split: [
      { destinationUrl: 'https://example.com/a', weight: 70 },
      { destinationUrl: 'https://example.com/b', weight: 30 },
    ],
  },
  null,
  () => `rul_${nextId++}`,
);
if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
const compiled = compileRouting(parsed.routing, 'qr_01JDBENCH000000000000000000');

const visitor = '0123456789abcdef0123456789abcdef';
const start = Date.UTC(2026, 10, 27, 12);
const scan: ScanFacts = { os: 'iOS', browser: 'Mobile Safari', device: 'mobile', country: 'DE', language: 'de', at: start, visitor };

function microsPerCall(step: number, facts: ScanFacts, expectRule: string | null): number {
  const began = process.hrtime.bigint();
  let last = null;
  for (let i = 0; i < CALLS; i++) {
    facts.at = start + i * step;
    last = routeScan(compiled, facts);
  }
  const elapsed = Number(process.hrtime.bigint() - began) / 1000 / CALLS;
  if (last?.ruleId !== expectRule) throw new Error(`expected ${expectRule}, got ${JSON.stringify(last)}`);
  return elapsed;
}

const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cases: [string, () => number][] = [
  ['20 rules, last matches, scans 1 ms apart', () => microsPerCall(1, { ...scan }, 'rul_19')],
  ['20 rules, last matches, scans 1 min apart (local time read anew each call)', () => microsPerCall(60_000, { ...scan }, 'rul_19')],
  ['20 rules, none matches (a scan from FR), split by visitor', () => microsPerCall(1, { ...scan, country: 'FR' }, null)],
];
for (const [name, run] of cases) {
  run(); // warm-up: the JIT, and the first reading of local time
  const rounds = Array.from({ length: ROUNDS }, run);
  console.log(`${name}: ${median(rounds).toFixed(3)} µs per call (rounds ${rounds.map((r) => r.toFixed(3)).join(' ')})`);
}
