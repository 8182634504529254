import { parse } from 'csv-parse/sync';
import { fromSpreadsheetCell } from './spreadsheet-cells.js';

/** Rows a file may have (besides its header): the limit. */
export const MAX_IMPORT_ROWS = 10_000;
/** Bytes a file may have: 10,000 rows of even a full VCARD_PLUS fit with room to spare. */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;
/**
 * Line breaks and separators on one line a file may have before it is parsed at all: parsing builds every record
 * in memory on the request's thread, and 10 MB of bare line breaks (10 million empty records) took minutes and
 * gigabytes. Five lines a row leaves room for cells with line breaks; no row of any type has 2,000 cells.
 */
export const MAX_IMPORT_LINES = MAX_IMPORT_ROWS * 5;
export const MAX_SEPARATORS_PER_LINE = 2_000;

export interface CsvRow {
  /** As a spreadsheet numbers it: the header is line 1, the first data row line 2 (a quoted cell may span lines). */
  line: number;
  cells: string[];
}

export type CsvReadResult = { ok: true; header: string[]; rows: CsvRow[] } | { ok: false; message: string };

/**
 * Reads an uploaded CSV as Excel and other spreadsheets write it: comma or semicolon separated (whichever the
 * header line uses; Excel in many European locales writes semicolons), UTF-8 with or without a BOM, CRLF, LF or CR,
 * quoted cells with embedded separators, quotes ("") and line breaks. Rows whose cells are all empty (Excel
 * writes `,,,` for formatted blank rows) are left out but keep their number. Anything else that is wrong is
 * one clear sentence, never a half-read file.
 */
export function readCsv(bytes: Buffer): CsvReadResult {
  if (bytes.length > MAX_IMPORT_BYTES) return { ok: false, message: `The file is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    // Decoding a Windows-1252 file as UTF-8 would turn every é into mojibake; refuse instead.
    return {
      ok: false,
      message:
        'The file is not UTF-8 text (it may have been saved as "CSV (Comma delimited)" by an older Excel, which uses ' +
        'the Windows character set). Save it again choosing "CSV UTF-8 (Comma delimited)", or export it as UTF-8 from your spreadsheet.',
    };
  }
  if (text.trim() === '') return { ok: false, message: 'The file is empty. It needs a header line and at least one row.' };
  if (text.includes('\u0000')) return { ok: false, message: 'The file contains NUL bytes: it is not a CSV text file.' };
  const delimiter = delimiterOf(text);
  const tooBig = beyondParsingBounds(text, delimiter);
  if (tooBig) return { ok: false, message: tooBig };
  let records: string[][];
  try {
    records = parse(text, {
      delimiter,
      relax_column_count: true,
      // A quote inside an unquoted cell (5" display, typed by hand) is kept as written rather than refused.
      relax_quotes: true,
      skip_empty_lines: false,
      bom: true,
    }) as string[][];
  } catch (error) {
    const reason = error instanceof Error ? error.message.replace(/^Invalid Record Length: |^Invalid Closing Quote: /, '') : String(error);
    return { ok: false, message: `The file could not be read as CSV: ${reason}` };
  }
  const [header, ...data] = records;
  if (!header) return { ok: false, message: 'The file is empty. It needs a header line and at least one row.' };
  const rows: CsvRow[] = [];
  data.forEach((cells, index) => {
    if (cells.every((cell) => cell.trim() === '')) return;
    rows.push({ line: index + 2, cells: cells.map(fromSpreadsheetCell) });
  });
  if (rows.length === 0) return { ok: false, message: 'The file has a header but no rows.' };
  if (rows.length > MAX_IMPORT_ROWS) {
    return { ok: false, message: `The file has ${rows.length.toLocaleString('en')} rows; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')}. Split it into smaller files.` };
  }
  return { ok: true, header: header.map((h) => h.trim()), rows };
}

/** Comma or semicolon: whichever occurs more often outside quotes on the header line (a comma on a tie). */
export function delimiterOf(text: string): ',' | ';' {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of text.replace(/^\uFEFF/, '')) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas++;
    else if (!quoted && char === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/** One pass over the text, before the parser builds anything: a sentence when the file passes the bounds above. */
function beyondParsingBounds(text: string, delimiter: string): string | undefined {
  let lines = 0;
  let separators = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A line ends at LF, or at a CR not followed by LF: old Mac files use CR alone, and the parser reads those
    // lines too (a CRLF is one line end, counted at its LF).
    if (code === 10 || (code === 13 && text.charCodeAt(i + 1) !== 10)) {
      if (++lines > MAX_IMPORT_LINES) {
        return `The file has more than ${MAX_IMPORT_LINES.toLocaleString('en')} lines; an import takes at most ${MAX_IMPORT_ROWS.toLocaleString('en')} rows. Split it into smaller files.`;
      }
      separators = 0;
    } else if (text[i] === delimiter && ++separators > MAX_SEPARATORS_PER_LINE) {
      return `Line ${lines + 1} has more than ${MAX_SEPARATORS_PER_LINE.toLocaleString('en')} separators; no code type has that many columns.`;
    }
  }
  return undefined;
}
