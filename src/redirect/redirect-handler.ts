import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { clientAddress, type ProxyTrust } from '../audience/client-address.js';
import type { GeoLookup } from '../audience/geo-lookup.js';
import { firstLanguage } from '../audience/language.js';
import { NOWHERE } from '../audience/place.js';
import type { VisitorDays } from '../audience/visitor-days.js';
import { visitorHash } from '../audience/visitor-hash.js';
import { normalizeSlug } from '../codes/slugs.js';
import { type AppContent, appDestination, kindOf } from '../codes/types/index.js';
import { type LandingAnswer, landingDownload, landingPage } from '../landing/index.js';
import { pausedAnswer } from '../landing/paused-page.js';
import { expiredAnswer, notActiveAnswer } from '../landing/schedule-pages.js';
import type { VcardPhotos } from '../landing/vcard-photo.js';
import type { RedirectObserver } from '../metrics/redirect-metrics.js';
import { routeScan } from '../routing/index.js';
import type { CodeLookup, CodeSchedule, RedirectTarget } from './code-lookup.js';
import { NOT_FOUND_PAGE_POLICY, NOT_FOUND_PAGES } from './not-found-page.js';
import type { ScanRecorder } from './scan-recorder.js';
import type { UserAgentClassifier } from './user-agent.js';

/** `/r/<slug>` or `/R/<slug>`, an optional trailing slash, any query. */
const SHORT_LINK = /^\/[rR]\/([^/?#]*)\/?(?:[?#].*)?$/;

export function isShortLinkPath(url: string | undefined): boolean {
  return url !== undefined && (url.startsWith('/r/') || url.startsWith('/R/'));
}

export interface RedirectDependencies {
  lookup: CodeLookup;
  recorder: ScanRecorder;
  classifier: UserAgentClassifier;
  logger: Logger;
  /** Contact photos for .vcf files, prepared once and kept. */
  photos: VcardPhotos;
  /** Told how each request ended and when it started (GET /metrics); nothing when metrics are off. */
  observer?: RedirectObserver;
  /** Where a scan came from (the offline IP database). */
  geo: GeoLookup;
  /** The UTC day's secret visitors are hashed with. */
  visitorDays: Pick<VisitorDays, 'secretFor'>;
  /** TRUST_PROXY, compiled: whose X-Forwarded-For names the client. */
  trustProxy: ProxyTrust;
  /** The clock scans are recorded by (tests move it). */
  now: () => number;
}

/**
 * The hot path, on bare node:http (no Express): resolve the slug (cached), record the scan and wait for its
 * commit (group commit), answer 302. Never cacheable, never indexed, never 301: the destination can change.
 *
 * Issue 28: a code's schedule is checked before anything is recorded (not active yet: 404 page; expired: 302 to its
 * expired URL, else 410 page; neither counted nor sent as a webhook), then its routing picks the destination, which
 * the scan records with the rule or variant that chose it. A code without schedule or routing pays two null checks.
 */
export function createRedirectHandler({ lookup, recorder, classifier, logger, observer, photos, geo, visitorDays, trustProxy, now }: RedirectDependencies) {
  /**
   * `security`: the headers every response of the service carries (src/security-headers.ts). They go into the one
   * writeHead of each answer: a header set before writeHead sends node down its slower path for all of them.
   */
  return async (req: IncomingMessage, res: ServerResponse, security: Readonly<Record<string, string>>): Promise<void> => {
    const startedAt = performance.now();
    try {
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...security, Allow: 'GET, HEAD', 'Cache-Control': 'no-store', 'Content-Length': 0 }).end();
        observer?.answered('method_not_allowed', startedAt);
        return;
      }
      const slug = normalizeSlug(SHORT_LINK.exec(req.url ?? '')?.[1] ?? '');
      const target = slug ? (lookup.fresh(slug) ?? (await lookup.resolve(slug))) : ({ state: 'gone' } as const);
      if (target.state === 'paused') {
        // In the account's colour and logo, cached with the code; still a 404, never cached, never indexed.
        const paused = pausedAnswer(target);
        htmlStatus(res, security, 404, paused.body, String(paused.headers['Content-Security-Policy']));
        observer?.answered('paused', startedAt);
        return;
      }
      if (target.state !== 'active') {
        htmlStatus(res, security, 404, NOT_FOUND_PAGES.gone);
        observer?.answered('gone', startedAt);
        return;
      }
      const schedule = target.schedule;
      // Read once: the schedule and the scan's time agree on the instant.
      const nowMs = now();
      if (schedule !== null) {
        if (nowMs < schedule.activeFrom) {
          const notActive = notActiveAnswer(target);
          htmlStatus(res, security, 404, notActive.body, String(notActive.headers['Content-Security-Policy']));
          observer?.answered('not_active', startedAt);
          return;
        }
        if (nowMs >= schedule.expiresAt) {
          expired(res, security, target, schedule, startedAt);
          return;
        }
      }
      const page = kindOf(target.type) === 'page';
      const download = page ? await landingDownload(target, req.url, photos) : undefined;
      if (download) {
        // The card or calendar file linked from a landing page: its scan was counted when the page was opened.
        answer(res, security, 200, download);
        observer?.answered('redirected', startedAt);
        return;
      }
      const scanner = classifier.classify(req.headers['user-agent']);
      const routing = target.routing;
      const recording = req.method === 'GET';
      const at = new Date(nowMs);
      let place = NOWHERE;
      let language: string | null = null;
      let visitor: string | null = null;
      if (recording || routing !== null) {
        // The address is used here and dropped: only its country, region and city and its keyed hash are recorded
        // (docs/dashboard/audience.md). Bots are only counted, so they cost neither.
        const address = scanner.bot ? null : clientAddress(req, trustProxy);
        place = address === null ? NOWHERE : geo.locate(address);
        let secret = address === null ? null : visitorDays.secretFor(at);
        // From memory all day; only the first scans of a day nobody fetched ahead wait for the database.
        if (secret instanceof Promise) secret = await secret;
        language = scanner.bot ? null : firstLanguage(req.headers['accept-language']);
        visitor = secret === null || address === null ? null : visitorHash(secret, address, req.headers['user-agent']);
      }
      let routed = routing === null ? null : routeScan(routing, { os: scanner.os, browser: scanner.browser, device: scanner.device, country: place.country, language, at: nowMs, visitor });
      // A split applies to URL codes only (the API refuses one elsewhere): a page (Wi-Fi, vCard, ...) and an APP
      // code's store choice stay their code's default, and only a rule overrides them.
      if (routed !== null && routed.ruleId === null && target.type !== 'URL') routed = null;
      // Where this scanner is sent (an APP code picks the store by the phone's system): what the scan records.
      const location = routed !== null ? routed.destinationUrl : page || target.type !== 'APP' ? target.destinationUrl : appDestination(target.content as AppContent, scanner.os);
      if (recording) {
        const scan = {
          codeId: target.codeId,
          accountId: target.accountId,
          at,
          device: scanner.device,
          os: scanner.os,
          browser: scanner.browser,
          destinationUrl: location,
          referrerHost: referrerHost(req.headers.referer),
          country: place.country,
          region: place.region,
          city: place.city,
          language,
          visitor,
          bot: scanner.bot,
          ruleId: routed === null ? null : routed.ruleId,
          variant: routed === null ? null : routed.variant,
        };
        if (schedule !== null && schedule.scanLimit !== null) {
          // Admitted where the scan is committed (never from a cached count); throws while the database cannot
          // be reached, answered 503 below, since a limited scan cannot be journaled without deciding it.
          if (!(await recorder.recordWithinLimit(scan))) {
            expired(res, security, target, schedule, startedAt);
            return;
          }
        } else {
          await recorder.record(scan);
        }
      }
      if (page && routed === null) {
        answer(res, security, 200, await landingPage(target, new Date(), photos));
        observer?.answered('redirected', startedAt);
        return;
      }
      found(res, security, location);
      observer?.answered('redirected', startedAt);
    } catch (error) {
      logger.error({ err: error, url: req.url }, 'redirect failed');
      if (!res.headersSent) {
        res.writeHead(503, { ...security, 'Cache-Control': 'no-store', 'Retry-After': '1', 'Content-Type': 'text/plain' });
      }
      res.end('Temporarily unavailable, please scan again.');
      observer?.answered('unavailable', startedAt);
    }
  };

  /** Past the code's expiry or scan limit: its expired URL (302) or the expired page (410); nothing recorded. */
  function expired(
    res: ServerResponse,
    security: Readonly<Record<string, string>>,
    target: Exclude<RedirectTarget, { state: 'gone' }>,
    schedule: CodeSchedule,
    startedAt: number,
  ): void {
    if (schedule.expiredUrl !== null) {
      found(res, security, schedule.expiredUrl);
      observer?.answered('expired_redirected', startedAt);
      return;
    }
    const page = expiredAnswer(target);
    htmlStatus(res, security, 410, page.body, String(page.headers['Content-Security-Policy']));
    observer?.answered('expired', startedAt);
  }
}

function found(res: ServerResponse, security: Readonly<Record<string, string>>, location: string): void {
  res.writeHead(302, {
    ...security,
    Location: location,
    'Cache-Control': 'private, no-store',
    'X-Robots-Tag': 'noindex',
    'Referrer-Policy': 'no-referrer-when-downgrade',
    'Content-Length': 0,
  });
  res.end();
}

/** A landing page or its file: never cached (the content can change after printing), never indexed. */
function answer(res: ServerResponse, security: Readonly<Record<string, string>>, status: number, { headers, body }: LandingAnswer): void {
  res.writeHead(status, {
    ...security,
    ...headers,
    'Cache-Control': 'private, no-store',
    'X-Robots-Tag': 'noindex',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** A page that is no destination (paused, gone, not active yet, expired): never cached, never indexed. */
function htmlStatus(res: ServerResponse, security: Readonly<Record<string, string>>, status: number, body: Buffer, policy = NOT_FOUND_PAGE_POLICY): void {
  res.writeHead(status, {
    ...security,
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    'X-Robots-Tag': 'noindex',
    'Content-Security-Policy': policy,
  });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}

/** DNS names are at most 253 characters; with a port or an IPv6 literal a host fits in this. */
const MAX_REFERRER_HOST = 260;

/** The Referer's host only, bounded: anonymous scanners choose this header, and it is stored with every scan. */
function referrerHost(referer: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer.slice(0, 4096)).host;
    return host && host.length <= MAX_REFERRER_HOST ? host : null;
  } catch {
    return null;
  }
}
