import { Gauge, type Registry } from 'prom-client';
import { poolUsage, type PoolUsage } from '../db/database.js';
import type { Database } from '../db/schema/index.js';

export interface PoolMetrics {
  /** `name` is the label: `main` (API and redirects), `webhooks` (the worker's own pool). */
  watch(name: string, db: Database): void;
}

/** Each pg pool's connections, read from pg-pool when scraped. */
export function createPoolMetrics(registry: Registry): PoolMetrics {
  const pools = new Map<string, Database>();
  const gauge = (name: string, help: string, read: (usage: PoolUsage) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        this.reset();
        for (const [pool, db] of pools) {
          const usage = poolUsage(db);
          if (usage) this.set({ pool }, read(usage));
        }
      },
    });
  gauge('qroute_db_pool_connections', 'Open connections of each PostgreSQL pool (pg totalCount).', (u) => u.total);
  gauge('qroute_db_pool_idle_connections', 'Idle connections of each PostgreSQL pool (pg idleCount).', (u) => u.idle);
  gauge('qroute_db_pool_waiting_queries', 'Queries waiting for a free connection in each PostgreSQL pool (pg waitingCount).', (u) => u.waiting);
  return {
    watch: (name, db) => {
      pools.set(name, db);
    },
  };
}
