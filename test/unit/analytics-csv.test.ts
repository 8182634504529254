import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from '../../src/analytics/csv.js';

describe('CSV fields', () => {
  it.each([
    { given: 'plain', want: 'plain' },
    { given: '', want: '' },
    { given: null, want: '' },
    { given: 'a,b', want: '"a,b"' },
    { given: 'say "hi"', want: '"say ""hi"""' },
    { given: 'two\nlines', want: '"two\nlines"' },
    { given: 'cr\rhere', want: '"cr\rhere"' },
    { given: '2026-01-01T00:00:00.000Z', want: '2026-01-01T00:00:00.000Z' },
    { given: 'https://example.com/a?x=1&y=-2', want: 'https://example.com/a?x=1&y=-2' },
    { given: 'a-b', want: 'a-b' },
  ])('writes $given as $want', ({ given, want }) => {
    expect(csvField(given)).toBe(want);
  });

  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('defuses %j so a spreadsheet shows it as text', (given) => {
    expect(csvField(given)).toBe(`"'${given}"`);
  });

  it('keeps quotes doubled inside a defused formula', () => {
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
  });

  it('ends each record with CRLF', () => {
    expect(csvRow(['a', null, '=b', 'c,d'])).toBe(`a,,"'=b","c,d"\r\n`);
  });
});
