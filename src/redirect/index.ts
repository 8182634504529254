import type { Logger } from 'pino';
import { compileProxyTrust, type TrustProxySetting } from '../audience/client-address.js';
import type { GeoLookup } from '../audience/geo-lookup.js';
import { VisitorDays } from '../audience/visitor-days.js';
import type { Database } from '../db/schema/index.js';
import { CODE_CHANGES_CHANNEL } from '../db/channels.js';
import { NotificationListener } from '../db/notification-listener.js';
import type { Metrics } from '../metrics/index.js';
import { VcardPhotos } from '../landing/vcard-photo.js';
import { CodeLookup } from './code-lookup.js';
import { createRedirectHandler } from './redirect-handler.js';
import { ScanJournal } from './scan-journal.js';
import { DEFAULT_SCAN_RECORDER_OPTIONS, ScanRecorder, type ScanRecorderOptions } from './scan-recorder.js';
import { UserAgentClassifier } from './user-agent.js';

export { isShortLinkPath } from './redirect-handler.js';

/** The short-link part: its cache, the change listener that keeps the cache true, and the scan recorder. */
export function createRedirect(deps: {
  db: Database;
  /** The primary directly (DATABASE_DIRECT_URL): the change listener holds its session while it listens. */
  directConnectionString: string;
  logger: Logger;
  cacheTtlMs?: number;
  recorder?: Partial<ScanRecorderOptions>;
  /** The app's metrics (GET /metrics), when served. */
  metrics?: Metrics;
  /** Where scans answered without a commit are journaled (Config.scanJournal); none: memory only. */
  journal?: { dir: string; maxBytes: number };
  /** Where scans came from: the geo database, opened by the caller (the service closes it). */
  geo: GeoLookup;
  /** TRUST_PROXY (Config.trustProxy): whose X-Forwarded-For names the scanner. */
  trustProxy: TrustProxySetting;
  /** The clock scans are recorded by and visitor days turn by (tests move it); default Date.now. */
  now?: () => number;
}) {
  const logger = deps.logger.child({ part: 'redirect' });
  const lookup = new CodeLookup(deps.db, {
    // 10 s: the longest a missed invalidation could show a stale destination; normally invalidation is immediate.
    ttlMs: deps.cacheTtlMs ?? 10_000,
    maxEntries: 100_000,
    maxGoneEntries: 10_000,
    // Well above a healthy lookup (about a millisecond), well below what a person waits before scanning again.
    lookupTimeoutMs: 1_500,
    unknownLookupTimeoutMs: 5_000,
    // parseRouting checked it before it was stored: only a routing written around the API (or by a later version) fails.
    onBadRouting: (codeId, error) => logger.error({ err: error, codeId }, 'stored routing does not compile; the code answers with its own destination'),
  });
  // While notifications are down, every scan reads the database (cached entries are not trusted).
  const listener = new NotificationListener(
    deps.directConnectionString,
    CODE_CHANGES_CHANNEL,
    {
      onNotification: (slug) => {
        if (slug) lookup.invalidate(slug);
      },
      onAvailability: (listening) => lookup.setNotificationsLive(listening),
    },
    logger,
  );
  const recorder = new ScanRecorder(deps.db, logger, { ...DEFAULT_SCAN_RECORDER_OPTIONS, ...deps.recorder }, deps.metrics?.scans.observer);
  deps.metrics?.scans.watch(recorder);
  const now = deps.now ?? Date.now;
  // A scan the code lookup answered from its cache because the database does not answer waits for no secret either.
  const visitorDays = new VisitorDays(deps.db, logger, { now, databaseUnresponsive: () => lookup.databaseUnresponsive });
  const handler = createRedirectHandler({
    lookup,
    recorder,
    classifier: new UserAgentClassifier(),
    logger,
    photos: new VcardPhotos(deps.db),
    observer: deps.metrics?.redirect,
    geo: deps.geo,
    visitorDays,
    trustProxy: compileProxyTrust(deps.trustProxy),
    now,
  });
  return {
    handler,
    recorder,
    /** Opens the journal (replaying what stopped processes left in it) and starts listening for code changes. */
    start: async () => {
      if (deps.journal && deps.journal.maxBytes > 0) {
        // A journal that cannot be opened (unwritable directory, full disk) must not keep short links down.
        const journal = await ScanJournal.open(deps.journal, logger).catch((error: unknown) => {
          logger.error({ err: error, dir: deps.journal!.dir }, 'scan journal cannot be opened: scans answered during a database outage are kept in memory only');
        });
        if (journal) recorder.useJournal(journal);
      }
      // Not waited for: scans wait for it only while it is in flight, and a database down now must not stop the start.
      visitorDays.start();
      await listener.start();
    },
    /** After the HTTP server has drained: write what is still in memory, then stop listening. */
    stop: async (timeoutMs: number) => {
      await recorder.stop(timeoutMs);
      await listener.stop();
      visitorDays.stop();
    },
  };
}

export type Redirect = ReturnType<typeof createRedirect>;
