/**
 * RFC 4180 CSV, safe to open in a spreadsheet. A field is quoted when it holds a quote, comma or line break
 * (quotes doubled inside). A field starting with `=`, `+`, `-`, `@`, a tab or a carriage return would be read as a
 * formula by Excel, LibreOffice and Google Sheets (CSV injection: a code named `=HYPERLINK(…)`), so it gets a
 * leading `'`, which the spreadsheet shows as text, and is quoted. Values come from people (code names) and from
 * scanners (referrer hosts): nothing is trusted.
 */
const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const guarded = FORMULA_START.test(value) ? `'${value}` : value;
  return guarded !== value || NEEDS_QUOTES.test(guarded) ? `"${guarded.replaceAll('"', '""')}"` : guarded;
}

/** One record with its CRLF line ending. */
export function csvRow(values: ReadonlyArray<string | null | undefined>): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
