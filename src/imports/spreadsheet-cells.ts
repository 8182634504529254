/**
 * A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is run as a formula by Excel, LibreOffice and
 * Google Sheets when an export is opened (CSV injection: a code named `=HYPERLINK(…)`; a phone number `+44 …`
 * turned into a number). The export writes such cells with a leading `'`, which spreadsheets show as text, and the
 * import takes that `'` off again, so import ∘ export stays the identity. A value that itself starts with `'`
 * before one of those characters gets a second `'`, so it survives the round trip too.
 */
const FORMULA_START = /^'*[=+\-@\t\r]/;

export function toSpreadsheetCell(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export function fromSpreadsheetCell(cell: string): string {
  return cell.startsWith("'") && FORMULA_START.test(cell) ? cell.slice(1) : cell;
}
