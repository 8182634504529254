// Types for scripts/cluster/standby.mjs (plain JavaScript: `npm run cluster` runs it without a build step).
export interface RunAs {
  uid?: number;
  gid?: number;
}
export declare function makeStandby(options: {
  primaryAdminUrl: string;
  standbyPgData: string;
  runAs: RunAs;
  slot: string;
  connectHost?: string;
  hotStandbyFeedback?: boolean;
}): Promise<{ bytes: number }>;
export declare function dropSlot(primaryAdminUrl: string, slot: string): Promise<void>;
export declare function waitForStreaming(primaryAdminUrl: string, applicationName: string, timeoutMs?: number): Promise<void>;
export declare function standbyState(pgData: string): Promise<'complete' | 'none' | 'incomplete'>;
