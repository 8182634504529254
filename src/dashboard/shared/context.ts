import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { StaleReads } from '../../db/read-replicas.js';
import type { Database } from '../../db/schema/index.js';
import type { Session, SessionLifetime } from '../../people/sessions.js';
import type { QrImages } from '../../qr/index.js';
import type { SecretBox } from '../../webhooks/secret-box.js';
import type { AssetUrls } from './assets.js';

/** What dashboard pages and actions need, passed in explicitly like the API's dependencies. */
export interface DashboardDependencies {
  config: Config;
  db: Database;
  /** Reads that may be slightly stale (read replicas when DATABASE_READ_URL is set, else the primary). */
  reads: StaleReads;
  logger: Logger;
  /** Encrypts webhook secrets at rest (the same key the API and worker use). */
  box: SecretBox;
  images: QrImages;
}

/** How long sessions last, from config (SESSION_IDLE_MINUTES, SESSION_MAX_DAYS). */
export function sessionLifetime(config: Config): SessionLifetime {
  return { idleMs: config.dashboard.sessionIdleMs, maxMs: config.dashboard.sessionMaxMs };
}

/** What every page render gets besides its own data: who is signed in, the CSRF token, asset URLs. */
export interface PageContext {
  session: Session | undefined;
  csrfToken: string;
  assets: AssetUrls;
  /** The request path, so the navigation can mark the current section. */
  path: string;
  siteUrl: string;
  /** The viewer's time zone (viewer-time-zone.ts): every time on the page is shown in it, named. */
  timeZone: string;
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      dashboard?: PageContext;
    }
  }
}

export function pageContext(res: Response): PageContext {
  const context = res.locals.dashboard;
  if (!context) throw new Error('dashboard route reached without the dashboard middleware');
  return context;
}

/** The signed-in session; routes behind `requireSignedIn` always have one. */
export function sessionOf(res: Response): Session {
  const session = pageContext(res).session;
  if (!session) throw new Error('dashboard route reached without a session');
  return session;
}

/** htmx sends this header with every request it makes: answer with a fragment instead of a whole page. */
export function isHtmx(req: Request): boolean {
  return req.headers['hx-request'] === 'true';
}
