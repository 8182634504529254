// Types for scripts/cluster/pgbouncer.mjs (plain JavaScript: `npm run cluster` runs it without a build step).
import type { RunAs } from './standby.mjs';

export declare const PGBOUNCER_BINARY: string;
export declare function pgbouncerInstalled(): boolean;
export interface RunningPgBouncer {
  pid: number | undefined;
  port: number;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  url(user: string, password: string, database?: string): string;
  adminUrl: string;
  show(what: string): Promise<Record<string, unknown>[]>;
  stop(): Promise<void>;
}
export declare function startPgBouncer(options: {
  dir: string;
  port: number;
  server: { host: string; port: number };
  users: { name: string; password: string }[];
  adminUser: string;
  runAs: RunAs;
  poolSize?: number;
  maxClientConn?: number;
  log?: (line: string) => void;
}): Promise<RunningPgBouncer>;
