import { sql } from 'kysely';
import type { Db } from './schema/index.js';

const SITE_URL = 'site_url';

/**
 * The server's SITE_URL, recorded at its start so the admin CLI, which often runs in a shell without the server's
 * environment, prints links (invitations) that open on the server people use instead of http://localhost:3000.
 * Written only when it changed: a restart with the same settings touches nothing. With several servers on one
 * database, the last one started with another SITE_URL wins; they normally share it.
 */
export async function recordSiteUrl(db: Db, siteUrl: string): Promise<void> {
  await db
    .insertInto('server_settings')
    .values({ name: SITE_URL, value: siteUrl })
    .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: siteUrl, updated_at: sql<Date>`now()` })
      .where('server_settings.value', 'is distinct from', siteUrl))
    .execute();
}

/**
 * recordSiteUrl without holding up the start: a server must start and serve printed codes while the database is
 * down, so a failed write is tried again every `retryMs` until it succeeds or the server stops.
 */
export function keepSiteUrlRecorded(db: Db, siteUrl: string, onError: (error: unknown) => void, retryMs = 30_000): { stop: () => void } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const attempt = () => {
    recordSiteUrl(db, siteUrl).catch((error: unknown) => {
      if (stopped) return;
      onError(error);
      timer = setTimeout(attempt, retryMs);
      timer.unref();
    });
  };
  attempt();
  return {
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** What the last server started on this database said its SITE_URL was; undefined when no server has run on it. */
export async function recordedSiteUrl(db: Db): Promise<string | undefined> {
  const row = await db.selectFrom('server_settings').select('value').where('name', '=', SITE_URL).executeTakeFirst();
  return row?.value;
}
