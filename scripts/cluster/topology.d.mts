// Types for scripts/cluster/topology.mjs (plain JavaScript: `npm run cluster` runs it without a build step).
export declare const INSTANCES: number;
export declare const WORKERS: number;
export interface RunningCluster {
  /** The balancer's URL, which every instance has as SITE_URL. */
  siteUrl: string;
  instances: { name: string; url: string }[];
  databaseUrls: { pooled: string; direct: string; replica: string };
  adminUrl: string;
  replicaAdminUrl: string;
  pgbouncerAdminUrl: string;
  pgbouncerShow(what: string): Promise<Record<string, unknown>[]>;
  killNow(): void;
  /** The balancer first (no new requests), then the instances and workers, PgBouncer, the replica, the primary. */
  stop(): Promise<void>;
}
export declare function startCluster(options: {
  root: string;
  dir: string;
  host: string;
  port: number;
  print: (name: string, line: string) => void;
  onUnexpectedExit?: (name: string, how: { code: number | null; signal: string | null }) => void;
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
}): Promise<RunningCluster>;
