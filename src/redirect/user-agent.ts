import { isbot } from 'isbot';
import { UAParser } from 'ua-parser-js';

/** ARCHITECTURE.md's device classes; `device` in the scan record is always one of these. */
export const DEVICE_CLASSES = ['mobile', 'tablet', 'desktop', 'smarttv', 'console', 'wearable', 'embedded', 'unknown'] as const;
export type DeviceClass = (typeof DEVICE_CLASSES)[number];

export interface Scanner {
  device: DeviceClass;
  /** Operating system name as ua-parser-js names it (`iOS`, `Android`, `Windows`, `Mac OS`), or `unknown`. */
  os: string;
  /** Browser name as ua-parser-js names it (`Mobile Safari`, `Chrome`, `Edge`, `Firefox`), or `unknown`. */
  browser: string;
  /** Crawlers, link-preview fetchers, HTTP libraries: redirected, but not counted as scans. */
  bot: boolean;
}

// ua-parser-js only sets a device type for non-desktop devices; these systems mean a desktop or laptop.
const DESKTOP_SYSTEMS = new Set(['Windows', 'Mac OS', 'macOS', 'Linux', 'Ubuntu', 'Debian', 'Fedora', 'Chrome OS',
  'Chromium OS', 'FreeBSD', 'OpenBSD', 'NetBSD', 'Mint', 'Arch', 'Gentoo', 'SUSE', 'Mandriva', 'Slackware', 'CentOS',
  'RedHat', 'Solaris', 'elementary OS']);

const PARSED_DEVICE_CLASSES = new Set<string>(['mobile', 'tablet', 'smarttv', 'console', 'wearable', 'embedded']);

export function classifyUserAgent(userAgent: string): Scanner {
  const parsed = new UAParser(userAgent).getResult();
  const os = parsed.os.name ?? 'unknown';
  const type = parsed.device.type;
  const device: DeviceClass =
    type && PARSED_DEVICE_CLASSES.has(type) ? (type as DeviceClass) : DESKTOP_SYSTEMS.has(os) ? 'desktop' : 'unknown';
  return { device, os: bounded(os), browser: bounded(parsed.browser.name ?? 'unknown'), bot: userAgent === '' || isbot(userAgent) };
}

/** Names come from the parser's patterns, some of which capture text from the header: keep what is stored short. */
function bounded(name: string): string {
  return name.length <= 64 ? name : name.slice(0, 64);
}

/**
 * Parsing a user agent costs tens of microseconds and the same few hundred strings make most traffic, so
 * results are kept in a bounded least-recently-used map.
 */
export class UserAgentClassifier {
  private readonly cache = new Map<string, Scanner>();

  constructor(private readonly maxEntries = 10_000) {}

  classify(userAgent: string | undefined): Scanner {
    const key = (userAgent ?? '').slice(0, 512);
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const scanner = classifyUserAgent(key);
    if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, scanner);
    return scanner;
  }
}
