import type { VNode } from 'preact';
import { render } from 'preact-render-to-string';
import type * as T from '../codes/types/index.js';
import { BusinessPage } from './business-page.js';
import { CouponPage } from './coupon-page.js';
import { EventPage } from './event-page.js';
import { ImagesPage, Mp3Page, PdfPage, VideoPage } from './file-pages.js';
import { buildIcs } from './icalendar.js';
import { EmailPage, SmsPage, TextPage } from './message-pages.js';
import type { Publisher } from './page-shell.js';
import { pageCsp, pageCss } from './page-style.js';
import { SocialMediaPage } from './social-media-page.js';
import { buildVcard } from './vcard.js';
import type { VcardPhotos } from './vcard-photo.js';
import { VcardPlusPage } from './vcard-plus-page.js';
import { WifiPage } from './wifi-page.js';

/** What a page-type code's short URL needs: the code's type and content (validated when stored), its publisher. */
export interface LandingTarget {
  codeId: string;
  slug: string;
  type: string;
  content: unknown;
  accountName: string;
  /** The account's colour and logo (src/accounts/branding.ts); null fields mean qroute's own look. */
  brand: { color: string | null; logoFileId: string | null };
}

export interface LandingAnswer {
  headers: Record<string, string | number>;
  body: Buffer;
}

/**
 * The card and calendar files linked from the VCARD_PLUS and EVENT pages: `?download=vcf` / `?download=ics` on
 * the short URL. They follow a scan already counted, so they are not scans themselves.
 */
export async function landingDownload(
  target: LandingTarget,
  requestUrl: string | undefined,
  photos: VcardPhotos,
): Promise<LandingAnswer | undefined> {
  const wanted = /[?&]download=(vcf|ics)(?:&|$)/.exec(requestUrl ?? '')?.[1];
  if (wanted === 'vcf' && target.type === 'VCARD_PLUS') return vcf(target, photos);
  if (wanted === 'ics' && target.type === 'EVENT') {
    const ics = buildIcs(target.content as T.EventContent, `${target.codeId}@qroute`, new Date());
    return file(ics, 'text/calendar; charset=utf-8', 'event.ics');
  }
  return undefined;
}

/** The answer to a scan of a page-type code: its landing page, or for CONTACT the .vcf itself. */
export async function landingPage(target: LandingTarget, now: Date, photos: VcardPhotos): Promise<LandingAnswer> {
  if (target.type === 'CONTACT') return vcf(target, photos);
  const publisher = publisherOf(target);
  return htmlAnswer(pageOf(target, now, publisher), publisher);
}

/** The page's look from the account's branding: its stylesheet carries the colour, the CSP that stylesheet's hash. */
export function publisherOf(target: Pick<LandingTarget, 'accountName' | 'brand'>): Publisher {
  return { accountName: target.accountName, css: pageCss(target.brand.color), logoFileId: target.brand.logoFileId };
}

/** A rendered page with the CSP that allows exactly its stylesheet. */
export function htmlAnswer(page: VNode, publisher: Publisher): LandingAnswer {
  const html = Buffer.from(`<!doctype html>${render(page)}`);
  return {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': html.length, 'Content-Security-Policy': pageCsp(publisher.css) },
    body: html,
  };
}

export function pageOf(target: Pick<LandingTarget, 'type' | 'content' | 'slug'>, now: Date, publisher: Publisher): VNode {
  const props = { publisher };
  const c = target.content;
  const base = `/r/${target.slug}`;
  switch (target.type) {
    case 'VCARD_PLUS': return <VcardPlusPage {...props} content={c as T.ContactContent} vcfHref={`${base}?download=vcf`} />;
    case 'PDF': return <PdfPage {...props} content={c as T.PdfContent} />;
    case 'IMAGES': return <ImagesPage {...props} content={c as T.ImagesContent} />;
    case 'VIDEO': return <VideoPage {...props} content={c as T.VideoContent} />;
    case 'MP3': return <Mp3Page {...props} content={c as T.Mp3Content} />;
    case 'BUSINESS': return <BusinessPage {...props} content={c as T.BusinessContent} />;
    case 'SOCIAL_MEDIA': return <SocialMediaPage {...props} content={c as T.SocialMediaContent} />;
    case 'COUPON': return <CouponPage {...props} content={c as T.CouponContent} now={now} />;
    case 'EVENT': return <EventPage {...props} content={c as T.EventContent} icsHref={`${base}?download=ics`} />;
    case 'TEXT': return <TextPage {...props} content={c as T.TextContent} />;
    case 'EMAIL': return <EmailPage {...props} content={c as T.EmailContent} />;
    case 'SMS': return <SmsPage {...props} content={c as T.SmsContent} />;
    case 'WIFI': return <WifiPage {...props} content={c as T.WifiContent} />;
    default: throw new Error(`no landing page for type ${target.type}`);
  }
}

async function vcf(target: LandingTarget, photos: VcardPhotos): Promise<LandingAnswer> {
  const contact = target.content as T.ContactContent;
  const photo = await photos.get(contact.photoFileId);
  return file(buildVcard(contact, photo), 'text/vcard; charset=utf-8', 'contact.vcf');
}

function file(text: string, contentType: string, filename: string): LandingAnswer {
  const body = Buffer.from(text);
  return {
    headers: {
      'Content-Type': contentType,
      'Content-Length': body.length,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Content-Security-Policy': "default-src 'none'; sandbox",
    },
    body,
  };
}
