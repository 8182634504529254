import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Holds one connection that LISTENs on a channel and reports each notification. Notifications sent while the
 * connection is down are lost, so `onAvailability(false)` tells the owner to stop relying on them (the code cache
 * stops trusting its entries; the webhook worker polls); it reconnects with backoff and reports `true` again
 * once listening.
 */
export class NotificationListener {
  private client: pg.Client | undefined;
  private stopped = false;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryDelayMs = 250;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly handlers: { onNotification(payload: string): void; onAvailability(listening: boolean): void },
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
      if (message.channel === this.channel) this.handlers.onNotification(message.payload ?? '');
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query(`listen ${pg.escapeIdentifier(this.channel)}`);
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
    this.logger.warn({ err: error, channel: this.channel, retryInMs: this.retryDelayMs }, 'notifications lost; reconnecting');
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), this.retryDelayMs);
    this.retryTimer.unref();
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, 5_000);
  }
}
