import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** What the scan metrics read from a ScanRecorder at scrape time (kept structural: no import cycle). */
export interface ScanRecorderView {
  readonly backlog: number;
  readonly isLive: boolean;
  readonly stats: { readonly written: number; readonly dropped: number };
  readonly batchStatements: { readonly withoutWebhooks: number; readonly withWebhooks: number; readonly rewrittenWithWebhooks: number };
  /** Undefined when the journal is off. */
  readonly journalStats:
    | { readonly journaledScans: number; readonly unjournaledScans: number; readonly replayedScans: number; readonly tornRecords: number; readonly expiredScans: number; readonly bytes: number }
    | undefined;
}

export interface ScanRecorderObserver {
  batchWritten(size: number): void;
}

export interface ScanMetrics {
  /** Handed to the recorder: one histogram observation per committed batch (not per scan). */
  observer: ScanRecorderObserver;
  watch(recorder: ScanRecorderView): void;
}

/** Scans written and dropped, batch sizes, and what is still in memory. Counters are read from the recorder when scraped. */
export function createScanMetrics(registry: Registry): ScanMetrics {
  let recorder: ScanRecorderView | undefined;
  new Counter({
    name: 'qroute_scans_written_total',
    help: 'Scans committed to the database (with their counters and webhook outbox rows).',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(recorder?.stats.written ?? 0);
    },
  });
  new Counter({
    name: 'qroute_scans_dropped_total',
    help: 'Scans lost: memory full during a database outage (SCAN_MEMORY_LIMIT) with scans in no journal, or refused by the database.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(recorder?.stats.dropped ?? 0);
    },
  });
  new Gauge({
    name: 'qroute_scan_backlog',
    help: 'Scans accepted but not yet known to be written (waiting for a commit, or kept in memory during an outage).',
    registers: [registry],
    collect() {
      this.set(recorder?.backlog ?? 0);
    },
  });
  new Gauge({
    name: 'qroute_scan_recorder_live',
    help: '1 while redirects wait for their scan commit; 0 while the database fails and scans are kept in memory.',
    registers: [registry],
    collect() {
      this.set(recorder === undefined || recorder.isLive ? 1 : 0);
    },
  });
  new Counter({
    name: 'qroute_scan_batch_statements_total',
    help: 'Scan batches by the statement that wrote them: without_webhooks (no account of the batch has a webhook), ' +
      'with_webhooks (an account was known to have one), rewritten_with_webhooks (found to have one while written ' +
      'without: two round trips).',
    labelNames: ['statement'],
    registers: [registry],
    collect() {
      this.reset();
      const counts = recorder?.batchStatements;
      this.inc({ statement: 'without_webhooks' }, counts?.withoutWebhooks ?? 0);
      this.inc({ statement: 'with_webhooks' }, counts?.withWebhooks ?? 0);
      this.inc({ statement: 'rewritten_with_webhooks' }, counts?.rewrittenWithWebhooks ?? 0);
    },
  });
  const journalCounter = (name: string, help: string, read: (stats: NonNullable<ScanRecorderView['journalStats']>) => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        const stats = recorder?.journalStats;
        if (stats) this.inc(read(stats));
      },
    });
  journalCounter('qroute_scans_journaled_total', 'Scans answered without a commit and journaled (fsync\'d) first.', (stats) => stats.journaledScans);
  journalCounter(
    'qroute_scans_unjournaled_total',
    'Scans answered without a commit that the journal could not take (SCAN_JOURNAL_MAX_MB reached, disk full, write error): in memory only.',
    (stats) => stats.unjournaledScans,
  );
  journalCounter('qroute_scan_journal_replayed_total', 'Scans written from journal files (left by a stopped process, or evicted from memory).', (stats) => stats.replayedScans);
  journalCounter('qroute_scan_journal_torn_records_total', 'Journal records skipped for a bad length or checksum (a write cut short by a crash).', (stats) => stats.tornRecords);
  journalCounter(
    'qroute_scan_journal_expired_total',
    'Scans in journal records too old to replay (their batch ids may be pruned from scan_batches), set aside in .expired files for the operator, not written.',
    (stats) => stats.expiredScans,
  );
  new Gauge({
    name: 'qroute_scan_journal_bytes',
    help: 'Bytes in this process\'s scan journal file (emptied once every batch in it is committed).',
    registers: [registry],
    collect() {
      this.set(recorder?.journalStats?.bytes ?? 0);
    },
  });
  const batchSize = new Histogram({
    name: 'qroute_scan_batch_size',
    help: 'Scans per committed batch (group commit: one transaction per batch of concurrent scans).',
    // Up to the recorder's maxBatch (500).
    buckets: [1, 2, 5, 10, 25, 50, 100, 250, 500],
    registers: [registry],
  });
  return {
    observer: { batchWritten: (size) => batchSize.observe(size) },
    watch: (watched) => {
      recorder = watched;
    },
  };
}
