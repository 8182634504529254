import pg from 'pg';
import type { Logger } from 'pino';
import { CODE_CHANGES_CHANNEL } from '../db/migrations/20261122T1100-redirect-and-scans.js';

/**
 * Holds one connection that LISTENs for code changes (a trigger NOTIFYs the slug on commit) and reports them.
 * While the connection is down, `onAvailability(false)` tells the cache not to trust its entries (every scan
 * reads the database); it reconnects with backoff and reports `true` again once listening.
 */
export class CodeChangeListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 250;

  constructor(
    private readonly connectionString: string,
    private readonly handlers: { onChange(slug: string): void; onAvailability(listening: boolean): void },
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, connectionTimeoutMillis: 5_000 });
    client.on('notification', (message) => {
      if (message.channel === CODE_CHANGES_CHANNEL && message.payload) this.handlers.onChange(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${CODE_CHANGES_CHANNEL}`);
    } catch (error) {
      this.lost(client, error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.retryDelayMs = 250;
    this.handlers.onAvailability(true);
  }

  private lost(client: pg.Client, error?: unknown): void {
    if (this.stopped || (this.client && this.client !== client)) return;
    this.client = undefined;
    this.handlers.onAvailability(false);
    client.removeAllListeners('end');
    client.end().catch(() => undefined);
    this.logger.warn({ err: error, retryInMs: this.retryDelayMs }, 'code change notifications lost; reading every scan from the database until reconnected');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 5_000);
  }
}
