import { posix } from 'node:path';
import yauzl from 'yauzl';
import { MAX_IMPORT_BYTES } from './read-csv.js';

/**
 * Limits of a ZIP of a CSV and its files. The upload is taken onto disk (never whole into memory) and bounded at
 * MAX_ZIP_BYTES; everything else is read from the ZIP's central directory before a byte is inflated, and the
 * reader (yauzl, validateEntrySizes) refuses an entry that inflates to more than its directory said, so a
 * directory that lies does not get past the limits either.
 */
export const MAX_ZIP_BYTES = 200 * 1024 * 1024;
/** Files, folders and the CSV: a 10,000-row import shares its files between rows far more often than not. */
export const MAX_ZIP_ENTRIES = 1_000;
/** What all entries inflate to, added up. */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 400 * 1024 * 1024;
/**
 * Inflated to compressed size. PDFs, images and MP3s are compressed already (about 1:1) and a CSV is text (about
 * 10:1); deflate reaches about 1,000:1 on a run of one byte, which is what a zip bomb is made of.
 */
export const MAX_ZIP_RATIO = 100;
/** Entries smaller than this are never ratio-checked: a small file inflating 200 times is no threat. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

/** Why a ZIP is refused as a whole: stable codes, shown with the sentence and listed in docs/dashboard/import.md. */
export type ZipRefusal =
  | 'zip_unreadable'
  | 'zip_too_large'
  | 'zip_too_many_entries'
  | 'zip_uncompressed_too_large'
  | 'zip_ratio_too_high'
  | 'zip_unsafe_name'
  | 'zip_encrypted'
  | 'zip_unsupported_compression'
  | 'zip_no_csv'
  | 'zip_several_csvs'
  | 'zip_csv_too_large';

export class ZipRefusedError extends Error {
  constructor(
    readonly code: ZipRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'ZipRefusedError';
  }
}

/** A file of the ZIP that rows may name. */
export interface ZipFile {
  /** Its path in the ZIP (`menu.pdf`, `files/menu.pdf`). */
  path: string;
  /** The last part of the path: what the stored file is called. */
  name: string;
  size: number;
  entry: yauzl.Entry;
}

export interface ImportZip {
  csvName: string;
  csv: Buffer;
  /** The file a cell names: its path in the ZIP, or its name alone when only one file has it (any case, if unique). */
  find(reference: string): ZipFile | undefined;
  /** The file's bytes, inflated as they are read; a ZipRefusedError if the entry is broken or bigger than declared. */
  read(file: ZipFile): AsyncIterable<Buffer>;
  close(): void;
}

export function looksLikeZip(head: Buffer): boolean {
  // A local file header, or the end of an empty archive's central directory.
  return head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6));
}

/**
 * Opens a ZIP from disk and checks it whole before anything in it is used: the entry count, every name (no `..`,
 * no absolute path, no control character), no encryption, only stored or deflated entries, the inflated total and
 * each entry's ratio, and exactly one CSV, which it reads. Folders, macOS's `__MACOSX/` copies and hidden files
 * (`.DS_Store`) are passed over. Throws ZipRefusedError; closes the file itself then.
 */
export async function openImportZip(path: string): Promise<ImportZip> {
  let zip: yauzl.ZipFile;
  try {
    // Names are decoded and checked below: yauzl's own check would end the read with an error of its wording.
    zip = await yauzl.openPromise(path, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch (error) {
    throw unreadable(error);
  }
  // An error the reader reports while no entry is awaited (nextEntry listens for its own) must not go unhandled.
  zip.on('error', () => {});
  try {
    const files = await checkedEntries(zip);
    const csvs = files.filter((file) => /\.csv$/i.test(file.name));
    if (csvs.length === 0) throw new ZipRefusedError('zip_no_csv', 'The ZIP has no CSV file. Put the CSV of the codes in it, next to their files.');
    if (csvs.length > 1) {
      throw new ZipRefusedError('zip_several_csvs', `The ZIP has ${csvs.length} CSV files (${csvs.map((f) => `"${f.path}"`).slice(0, 5).join(', ')}); it may hold one.`);
    }
    const csvFile = csvs[0]!;
    if (csvFile.size > MAX_IMPORT_BYTES) {
      throw new ZipRefusedError('zip_csv_too_large', `The CSV in the ZIP is larger than ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.`);
    }
    const parts: Buffer[] = [];
    for await (const chunk of readEntry(zip, csvFile)) parts.push(chunk);
    const others = files.filter((file) => file !== csvFile);
    return { csvName: csvFile.name, csv: Buffer.concat(parts), find: finder(others), read: (file) => readEntry(zip, file), close: () => zip.close() };
  } catch (error) {
    zip.close();
    throw error;
  }
}

async function checkedEntries(zip: yauzl.ZipFile): Promise<ZipFile[]> {
  if (zip.entryCount > MAX_ZIP_ENTRIES) {
    throw new ZipRefusedError('zip_too_many_entries', `The ZIP has ${zip.entryCount.toLocaleString('en')} entries; it may have at most ${MAX_ZIP_ENTRIES.toLocaleString('en')}.`);
  }
  const files: ZipFile[] = [];
  let total = 0;
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    const path = entryName(entry);
    if (path.endsWith('/')) continue;
    const name = posix.basename(path);
    if (path.startsWith('__MACOSX/') || name.startsWith('.')) continue;
    // Bit 0: encrypted (yauzl cannot read it, and a file of codes has no reason to be).
    if ((entry.generalPurposeBitFlag & 1) !== 0) throw new ZipRefusedError('zip_encrypted', `"${path}" in the ZIP is encrypted. Make the ZIP again without a password.`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw new ZipRefusedError('zip_unsupported_compression', `"${path}" in the ZIP is compressed in a way this import does not read (method ${entry.compressionMethod}). Make the ZIP again with the usual "deflate" compression.`);
    }
    total += entry.uncompressedSize;
    if (total > MAX_ZIP_UNCOMPRESSED_BYTES) {
      throw new ZipRefusedError('zip_uncompressed_too_large', `The files in the ZIP add up to more than ${MAX_ZIP_UNCOMPRESSED_BYTES / 1024 / 1024} MB unpacked. Split the import into smaller ZIPs.`);
    }
    if (entry.uncompressedSize > RATIO_FLOOR_BYTES && entry.uncompressedSize > entry.compressedSize * MAX_ZIP_RATIO) {
      throw new ZipRefusedError('zip_ratio_too_high', `"${path}" in the ZIP unpacks to more than ${MAX_ZIP_RATIO} times its packed size, which no real file does. The ZIP is refused as unsafe.`);
    }
    files.push({ path, name, size: entry.uncompressedSize, entry });
  }
  return files;
}

/** The entry's name decoded (UTF-8 when flagged, else the old DOS code page, as yauzl reads it) and checked. */
function entryName(entry: yauzl.Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, raw, entry.extraFields, false);
  // Backslashes are already slashes (strictFileNames off), so `..\x` is caught as `../x` too.
  // eslint-disable-next-line no-control-regex
  if (yauzl.validateFileName(name) !== null || /[\u0000-\u001f\u007f]/.test(name) || name === '') {
    throw new ZipRefusedError('zip_unsafe_name', `The ZIP has an entry named "${visible(name)}": names with "..", absolute paths or control characters are refused, as a ZIP made to write outside its folder would have them.`);
  }
  return name;
}

function visible(name: string): string {
  // eslint-disable-next-line no-control-regex
  return [...name.replace(/[\u0000-\u001f\u007f]/g, '?')].slice(0, 120).join('');
}

function finder(files: ZipFile[]): (reference: string) => ZipFile | undefined {
  const only = (matches: ZipFile[]) => (matches.length === 1 ? matches[0] : undefined);
  return (reference) => {
    const wanted = reference.trim().replace(/\\/g, '/').replace(/^\.\//, '');
    if (wanted === '') return undefined;
    const lower = wanted.toLowerCase();
    return (
      only(files.filter((f) => f.path === wanted)) ??
      only(files.filter((f) => f.name === wanted)) ??
      only(files.filter((f) => f.path.toLowerCase() === lower)) ??
      only(files.filter((f) => f.name.toLowerCase() === lower))
    );
  };
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const cleanUp = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanUp();
      resolve(entry);
    };
    const onEnd = () => {
      cleanUp();
      resolve(undefined);
    };
    const onError = (error: unknown) => {
      cleanUp();
      reject(unreadable(error));
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function* readEntry(zip: yauzl.ZipFile, file: ZipFile): AsyncGenerator<Buffer> {
  let stream;
  try {
    stream = await zip.openReadStreamPromise(file.entry);
  } catch (error) {
    throw unreadable(error, file.path);
  }
  try {
    for await (const chunk of stream) yield chunk as Buffer;
  } catch (error) {
    throw unreadable(error, file.path);
  } finally {
    stream.destroy();
  }
}

/** A broken archive, or an entry that inflates to other than its declared size (yauzl checks as it reads). */
function unreadable(error: unknown, path?: string): ZipRefusedError {
  if (error instanceof ZipRefusedError) return error;
  const reason = error instanceof Error ? error.message : String(error);
  const where = path === undefined ? 'The file' : `"${visible(path)}" in the ZIP`;
  return new ZipRefusedError('zip_unreadable', `${where} could not be read as a ZIP (${reason.slice(0, 200)}). Make the ZIP again and upload it.`);
}
