import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileRouting, parseRouting, routeScan, type Routing, type ScanFacts } from '../../src/routing/index.js';

function routingOf(input: unknown): Routing {
  let next = 0;
  const parsed = parseRouting(input, null, () => `rul_${next++}`);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
  return parsed.routing;
}

const splitOf = (weights: number[]) => ({ split: weights.map((weight, i) => ({ destinationUrl: `https://example.com/${i}`, weight })) });

/** Day visitor hashes as the redirect makes them: 32 hex digits of an HMAC, i.e. uniformly random. */
function visitors(count: number): string[] {
  const bytes = randomBytes(16 * count).toString('hex');
  return Array.from({ length: count }, (_, i) => bytes.slice(i * 32, i * 32 + 32));
}

const scan = (facts: Partial<ScanFacts>): ScanFacts => ({ os: null, browser: null, device: null, country: null, language: null, at: Date.UTC(2026, 10, 27, 12), visitor: null, ...facts });

/** Whole-number weights of 2–6 variants adding up to 100. */
const weights = fc
  .uniqueArray(fc.integer({ min: 1, max: 99 }), { minLength: 1, maxLength: 5 })
  .map((cuts) => {
    const points = [0, ...cuts.sort((a, b) => a - b), 100];
    return points.slice(1).map((point, i) => point - points[i]!);
  });

describe('routing by split', () => {
  const people = visitors(100_000);

  it('shares visitors out by weight, within a percentage point over 100,000 visitors (the standard deviation is 0.16)', () => {
    fc.assert(
      fc.property(weights, fc.string({ minLength: 1, maxLength: 30 }), (split, codeId) => {
        const compiled = compileRouting(routingOf(splitOf(split)), codeId);
        const counts = split.map(() => 0);
        for (const visitor of people) counts[routeScan(compiled, scan({ visitor }))!.variant!]! += 1;
        counts.forEach((count, i) => expect(Math.abs(count / people.length - split[i]! / 100), `variant ${i} of ${split}`).toBeLessThan(0.01));
      }),
      { numRuns: 8 },
    );
  });

  it('keeps a visitor on one variant all day, whenever and however often they scan', () => {
    const routing = routingOf(splitOf([34, 33, 33]));
    fc.assert(
      fc.property(fc.constantFrom(...people.slice(0, 1000)), fc.array(fc.integer({ min: 0, max: 86_399_999 }), { minLength: 2, maxLength: 10 }), (visitor, times) => {
        // A fresh compile each time: what an instance that cached the code later would answer.
        const variants = times.map((ms) => routeScan(compileRouting(routing, 'qr_ABC'), scan({ visitor, at: Date.UTC(2026, 10, 27) + ms }))!.variant);
        expect(new Set(variants).size).toBe(1);
      }),
    );
  });

  it('puts different people in variant 0 of different codes', () => {
    const routing = routingOf(splitOf([50, 50]));
    const first = compileRouting(routing, 'qr_01JD0000000000000000000001');
    const second = compileRouting(routing, 'qr_01JD0000000000000000000002');
    const both = [0, 0, 0, 0];
    for (const visitor of people) both[routeScan(first, scan({ visitor }))!.variant! * 2 + routeScan(second, scan({ visitor }))!.variant!]! += 1;
    // Independent codes: each pair of variants holds a quarter of the visitors (the same buckets would give 1/2, 0, 0, 1/2).
    for (const count of both) expect(Math.abs(count / people.length - 0.25)).toBeLessThan(0.01);
  });

  it('draws a variant at random for a scan without a (usable) visitor', () => {
    const compiled = compileRouting(routingOf(splitOf([70, 30])), 'qr_1');
    expect(routeScan(compiled, scan({}), () => 0)!.variant).toBe(0);
    expect(routeScan(compiled, scan({}), () => 0.6999)!.variant).toBe(0);
    expect(routeScan(compiled, scan({}), () => 0.7)!.variant).toBe(1);
    expect(routeScan(compiled, scan({}), () => 0.9999999)!.variant).toBe(1);
    expect(routeScan(compiled, scan({ visitor: 'not a visitor hash' }), () => 0.75)).toEqual({ destinationUrl: 'https://example.com/1', ruleId: null, variant: 1 });
  });

  it('answers null without a matching rule or a split: the code’s own destination applies', () => {
    const compiled = compileRouting(routingOf({ rules: [{ when: { os: ['iOS'] }, destinationUrl: 'https://example.com/ios' }] }), 'qr_1');
    expect(routeScan(compiled, scan({ os: 'Android', visitor: people[0]! }))).toBeNull();
    expect(routeScan(compiled, scan({ os: null }))).toBeNull();
    expect(routeScan(compiled, scan({ os: 'iOS' }))).toEqual({ destinationUrl: 'https://example.com/ios', ruleId: 'rul_0', variant: null });
  });
});

describe('routing by rules', () => {
  const VALUES = {
    os: ['iOS', 'Android', 'Windows'],
    browsers: ['Mobile Safari', 'Chrome'],
    devices: ['mobile', 'desktop'],
    countries: ['DE', 'AT', 'US'],
    languages: ['de', 'en'],
  } as const;
  type ListKey = keyof typeof VALUES;
  const SCAN_FIELD: Record<ListKey, keyof ScanFacts> = { os: 'os', browsers: 'browser', devices: 'device', countries: 'country', languages: 'language' };
  const keys = Object.keys(VALUES) as ListKey[];

  const conditions = fc
    .record(Object.fromEntries(keys.map((key) => [key, fc.subarray([...VALUES[key]], { minLength: 1 })])) as Record<ListKey, fc.Arbitrary<string[]>>, {
      requiredKeys: [],
    })
    .filter((when) => Object.keys(when).length > 0);
  const scanFacts = fc.record(Object.fromEntries(keys.map((key) => [SCAN_FIELD[key], fc.option(fc.constantFrom(...VALUES[key]), { nil: null })])) as Record<string, fc.Arbitrary<string | null>>);

  it('answers with the first rule whose every condition holds, in the order given', () => {
    fc.assert(
      fc.property(fc.array(conditions, { minLength: 1, maxLength: 20 }), fc.array(scanFacts, { minLength: 1, maxLength: 20 }), fc.boolean(), (whens, scans, withSplit) => {
        const routing = routingOf({
          rules: whens.map((when, i) => ({ when, destinationUrl: `https://example.com/rule${i}` })),
          ...(withSplit ? splitOf([60, 40]) : {}),
        });
        const compiled = compileRouting(routing, 'qr_1');
        for (const scanned of scans) {
          const facts = scan(scanned as Partial<ScanFacts>);
          const first = whens.findIndex((when) =>
            (Object.entries(when) as [ListKey, string[]][]).every(([key, list]) => {
              const value = facts[SCAN_FIELD[key]];
              return typeof value === 'string' && list.includes(value);
            }),
          );
          const decision = routeScan(compiled, facts);
          if (first >= 0) expect(decision).toEqual({ destinationUrl: `https://example.com/rule${first}`, ruleId: routing.rules[first]!.id, variant: null });
          else if (withSplit) expect(decision?.ruleId).toBeNull();
          else expect(decision).toBeNull();
        }
      }),
      { numRuns: 150 },
    );
  });

  it('matches list values exactly as normalised: case matters for OS and browser names', () => {
    const compiled = compileRouting(routingOf({ rules: [{ when: { os: ['iOS'], countries: ['de'] }, destinationUrl: 'https://example.com/' }] }), 'qr_1');
    expect(routeScan(compiled, scan({ os: 'iOS', country: 'DE' }))?.ruleId).toBe('rul_0');
    expect(routeScan(compiled, scan({ os: 'ios', country: 'DE' }))).toBeNull();
    expect(routeScan(compiled, scan({ os: 'iOS', country: null }))).toBeNull();
  });
});
