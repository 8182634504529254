import { Counter, Gauge, type Registry } from 'prom-client';
import type { ReadReplicaObserver, ReadRoute, ReplicaStatus } from '../db/read-replicas.js';

export interface ReplicaMetrics extends ReadReplicaObserver {
  /** The replicas, read when scraped. */
  watch(replicas: { statuses(): ReplicaStatus[] }): void;
}

const ROUTES: readonly ReadRoute[] = ['replica', 'no_usable_replica', 'replica_failed', 'own_recent_write', 'retried_on_primary'];

/**
 * Where stale-tolerant reads went (DATABASE_READ_URL) and why, and each replica's state as of its last probe, so an
 * operator sees when reads fall back to the primary: `qroute_replica_reads_total{reason!="replica"}` rising.
 */
export function createReplicaMetrics(registry: Registry): ReplicaMetrics {
  let replicas: { statuses(): ReplicaStatus[] } | undefined;
  const reads = new Counter({
    name: 'qroute_replica_reads_total',
    help:
      'Reads that may go to a read replica, by where they went: reason="replica" on a replica; on the primary: no_usable_replica (every ' +
      'replica down or past READ_REPLICA_MAX_LAG_SECONDS), replica_failed (it failed to answer), own_recent_write (the browser wrote moments ago), ' +
      'retried_on_primary (the replica had not seen a new row yet).',
    labelNames: ['reason'],
    registers: [registry],
  });
  for (const reason of ROUTES) reads.inc({ reason }, 0);
  const perReplica = (name: string, help: string, read: (status: ReplicaStatus) => number | undefined) =>
    new Gauge({
      name,
      help,
      labelNames: ['replica'],
      registers: [registry],
      collect() {
        this.reset();
        for (const status of replicas?.statuses() ?? []) {
          const value = read(status);
          if (value !== undefined) this.set({ replica: status.name }, value);
        }
      },
    });
  perReplica('qroute_read_replica_up', 'Whether each read replica answered its last probe as a streaming replica (1) or not (0).', (s) => (s.up ? 1 : 0));
  perReplica('qroute_read_replica_usable', 'Whether reads go to each read replica now (up and within READ_REPLICA_MAX_LAG_SECONDS).', (s) => (s.usable ? 1 : 0));
  perReplica('qroute_read_replica_lag_seconds', 'How far each read replica is behind the primary at most (absent while not known).', (s) => s.lagSeconds);
  return {
    read: (route) => reads.inc({ reason: route }),
    watch: (watched) => {
      replicas = watched;
    },
  };
}
