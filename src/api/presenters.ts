import type { QrCode, Scan } from '../codes/qr-code-service.js';
import type { ApiQrCode, ApiScan } from './contract.js';

/** The API shape of a code. `shortUrl` depends on where this instance is reachable, so it is built here. */
export function presentQrCode(code: QrCode, siteUrl: string): ApiQrCode {
  return {
    id: code.id,
    name: code.name,
    type: code.type,
    slug: code.slug,
    destinationUrl: code.destinationUrl,
    scanCount: code.scanCount,
    active: code.active,
    createdAt: code.createdAt.toISOString(),
    shortUrl: `${siteUrl}/r/${code.slug}`,
  };
}

export function presentScan(scan: Scan): ApiScan {
  return { createdAt: scan.createdAt.toISOString(), device: scan.device as ApiScan['device'], os: scan.os, browser: scan.browser };
}
