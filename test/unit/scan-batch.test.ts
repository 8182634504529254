import { describe, expect, it } from 'vitest';
import { prepareScanBatch, type ScanEvent } from '../../src/redirect/scan-batch.js';

const scan = (overrides: Partial<ScanEvent> = {}): ScanEvent => ({
  codeId: 'qr_1', accountId: 'acc_1', at: new Date('2026-11-23T12:00:00.000Z'), device: 'mobile', os: 'iOS',
  browser: 'Mobile Safari', destinationUrl: 'https://example.com/', referrerHost: null, country: null, region: null, city: null, language: null, visitor: null, bot: false, ...overrides,
});

interface Parameter {
  scans: [string, string, string, string, string, string, string | null, (string | null)[], string | null][];
  counts: [string, number, number][];
}
const parameterOf = (scans: ScanEvent[]) => JSON.parse(prepareScanBatch(scans).rows) as Parameter;

describe('a prepared scan batch', () => {
  it('writes every time as JSON.stringify would, across seconds, years and centuries', () => {
    const times = [
      ...Array.from({ length: 2000 }, (_, i) => new Date(Date.UTC(2026, 10, 23, 23, 59, 59, 0) + i * 7)), // rolls over the day and year
      ...[0, -1, -999, -1000, -1001, 999, 1000, 253402300799999, 253402300800000, -62167219200001, 8.64e15, -8.64e15].map((ms) => new Date(ms)),
      ...Array.from({ length: 500 }, () => new Date(Math.floor((Math.random() - 0.5) * 2 * 8.64e15))),
      new Date(Number.NaN),
    ];
    const { scans } = parameterOf(times.map((at) => scan({ at })));
    // Grouped by second, so compared as sets: every time once, written as JSON.stringify writes it.
    const sorted = (values: (string | null)[]) => [...values].sort((a, b) => String(a).localeCompare(String(b)));
    expect(sorted(scans.flatMap((group) => group[7]))).toEqual(sorted(JSON.parse(JSON.stringify(times)) as (string | null)[]));
  });

  it('groups scans by the second they fall in, each group with its earliest time, whatever their order', () => {
    const at = (iso: string) => new Date(`2026-01-01T10:00:${iso}Z`);
    const { scans } = parameterOf([
      scan({ at: at('00.900') }),
      scan({ at: at('00.100') }),
      scan({ at: at('01.000') }),
      scan({ at: at('00.999') }),
      scan({ at: at('00.100') }),
    ]);
    expect(scans.map((group) => [group[7], group[8]])).toEqual([
      [['2026-01-01T10:00:00.900Z', '2026-01-01T10:00:00.100Z', '2026-01-01T10:00:00.999Z', '2026-01-01T10:00:00.100Z'], '2026-01-01T10:00:00.100Z'],
      [['2026-01-01T10:00:01.000Z'], '2026-01-01T10:00:01.000Z'],
    ]);
  });

  it('groups scans only when every field but the time is equal, and counts each code, bots apart', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
    const { scans, counts } = parameterOf([
      scan({ at: at(1) }),
      scan({ at: at(2), referrerHost: '' }),
      scan({ at: at(3) }),
      scan({ at: at(4), codeId: 'qr_2', destinationUrl: 'https://example.com/b' }),
      scan({ at: at(5), bot: true }),
      scan({ at: at(6), referrerHost: 'news.example' }),
      scan({ at: at(7), os: 'Android' }),
      scan({ at: at(8), referrerHost: '' }),
    ]);
    expect(scans.map((group) => [group[0], group[3], group[6], group[7].length])).toEqual([
      ['qr_1', 'iOS', null, 2],
      ['qr_1', 'iOS', '', 2],
      ['qr_2', 'iOS', null, 1],
      ['qr_1', 'iOS', 'news.example', 1],
      ['qr_1', 'Android', null, 1],
    ]);
    expect(counts).toEqual([['qr_1', 6, 1], ['qr_2', 1, 0]]);
  });

  it('splits groups by place, language and whether visitors are known, and offers each (day, code, visitor) once', () => {
    const at = (day: number, ms: number) => new Date(Date.UTC(2026, 0, 1 + day) + ms);
    const parameter = JSON.parse(prepareScanBatch([
      scan({ at: at(0, 1), country: 'DE', language: 'de', visitor: 'v1' }),
      scan({ at: at(0, 2), country: 'DE', language: 'de', visitor: 'v1' }), // again: never unique
      scan({ at: at(0, 3), country: 'DE', language: 'de', visitor: 'v2' }),
      scan({ at: at(0, 4), country: 'DE', language: 'de', visitor: null }), // no secret: not known
      scan({ at: at(0, 5), country: 'FR', language: 'de', visitor: 'v1' }),
      scan({ at: at(0, 6), country: 'DE', language: 'en', visitor: 'v3' }),
      scan({ at: at(0, 7), country: 'DE', region: 'Bavaria', city: 'Munich', language: 'de', visitor: 'v4' }),
      scan({ at: at(0, 8), codeId: 'qr_2', country: 'DE', language: 'de', visitor: 'v1' }), // another code
      scan({ at: at(1, 9), country: 'DE', language: 'de', visitor: 'v1' }), // the next day
    ]).rows) as { scans: unknown[][] };
    // Each group's UTC day is sent, so PostgreSQL finds the day's secret once a group rather than once a scan.
    expect(parameter.scans.map((group) => [group[0], ...group.slice(9, 15), (group[7] as unknown[]).length])).toEqual([
      ['qr_1', 'DE', null, null, 'de', ['v1', null, 'v2'], '2026-01-01', 3],
      ['qr_1', 'DE', null, null, 'de', null, '2026-01-01', 1],
      ['qr_1', 'FR', null, null, 'de', [null], '2026-01-01', 1], // v1 was offered for this code and day already
      ['qr_1', 'DE', null, null, 'en', ['v3'], '2026-01-01', 1],
      ['qr_1', 'DE', 'Bavaria', 'Munich', 'de', ['v4'], '2026-01-01', 1],
      ['qr_2', 'DE', null, null, 'de', ['v1'], '2026-01-01', 1],
      ['qr_1', 'DE', null, null, 'de', ['v1'], '2026-01-02', 1],
    ]);
  });

  it('splits groups by how scans were routed, and sends each group\'s rule id and variant', () => {
    const at = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms);
    const { scans } = JSON.parse(prepareScanBatch([
      scan({ at: at(1) }),
      scan({ at: at(2), ruleId: 'rul_a' }),
      scan({ at: at(3), ruleId: 'rul_a' }),
      scan({ at: at(4), ruleId: 'rul_b' }),
      scan({ at: at(5), variant: 0 }),
      scan({ at: at(6), variant: 1 }),
      scan({ at: at(7), ruleId: null, variant: null }), // as a scan without routing
    ]).rows) as { scans: unknown[][] };
    expect(scans.map((group) => [group[15], group[16], (group[7] as unknown[]).length])).toEqual([
      [null, null, 2],
      ['rul_a', null, 2],
      ['rul_b', null, 1],
      [null, 0, 1],
      [null, 1, 1],
    ]);
  });
});
