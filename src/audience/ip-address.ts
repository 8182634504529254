import { isIPv6 } from 'node:net';

/**
 * Client addresses as the scan path meets them: a socket's (`::ffff:1.2.3.4` on a dual-stack listener) or a
 * proxy's X-Forwarded-For hop (sometimes with a port, `1.2.3.4:5678` or `[2001:db8::1]:443`). Hand-written rather
 * than ipaddr.js: this runs on every redirect, and parsing, classifying and printing an address with ipaddr.js cost
 * about 12 µs, more than the geo lookup itself; this costs well under 1 µs for IPv4, about 1 µs for IPv6 (half of it
 * node:net's isIPv6).
 */

/** Longest text worth parsing: a full IPv6 address with an embedded IPv4 is 45 characters, plus a zone or a port. */
const MAX_ADDRESS_LENGTH = 64;

/**
 * The address as one canonical spelling, or null when `text` is not an IP address. An IPv4-mapped IPv6 address
 * (`::ffff:1.2.3.4`, `0:0:0:0:0:ffff:102:304`) is the IPv4 address; IPv6 is RFC 5952's text form (lower case, no
 * leading zeros, the longest run of zero groups as `::`); a port and brackets are dropped, so one client is one
 * string whichever way a proxy or a socket wrote it (the visitor hash depends on that).
 */
export function normaliseAddress(text: string): string | null {
  if (text.length === 0 || text.length > MAX_ADDRESS_LENGTH) return null;
  let address = text.trim();
  if (address.startsWith('[')) {
    const close = address.indexOf(']');
    if (close < 0) return null;
    const rest = address.slice(close + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    address = address.slice(1, close);
  }
  const colon = address.indexOf(':');
  if (colon < 0) return ipv4Number(address) === null ? null : address;
  // One colon is never IPv6 (that needs two at least): an IPv4 address with a port.
  if (address.indexOf(':', colon + 1) < 0) {
    const host = address.slice(0, colon);
    return /^\d{1,5}$/.test(address.slice(colon + 1)) && ipv4Number(host) !== null ? host : null;
  }
  if (!isIPv6(address)) return null;
  address = canonicalIPv6(address.toLowerCase());
  return mappedIPv4(address) ?? address;
}

/**
 * A valid lower-case IPv6 address (isIPv6) in RFC 5952's form: each group in hex without leading zeros, the
 * longest run of two or more zero groups (the first of equal runs) written `::`, an embedded IPv4 tail as its two
 * groups. A zone (`%eth0`) is kept as written. One pass over the characters, and an address already in that form
 * (what sockets and proxies write, nearly always) is returned as it is: this runs on every redirect from IPv6.
 */
function canonicalIPv6(address: string): string {
  const percent = address.indexOf('%');
  const end = percent < 0 ? address.length : percent;
  const groups = [0, 0, 0, 0, 0, 0, 0, 0];
  let count = 0;
  /** How many groups precede `::`; -1 without one. */
  let gap = -1;
  let value = 0;
  let digits = 0;
  let fieldStart = 0;
  /** A group written with a leading zero, or a dotted IPv4 tail: not RFC 5952's form. */
  let respell = false;
  for (let index = 0; index < end; index++) {
    const code = address.charCodeAt(index);
    if (code === 58) {
      // ':' ends a field; one right after another (or at the start) is the `::`.
      if (digits > 0) groups[count++] = value;
      else gap = count;
      if (index === 0) index++; // a leading `::`: both colons at once
      value = 0;
      digits = 0;
      fieldStart = index + 1;
    } else if (code === 46) {
      // A dotted IPv4 tail (validated by isIPv6): its two groups, and the end of the address.
      const v4 = ipv4Number(address.slice(fieldStart, end)) ?? 0;
      groups[count++] = Math.floor(v4 / 65_536);
      groups[count++] = v4 % 65_536;
      digits = 0;
      respell = true;
      break;
    } else {
      if (digits > 0 && value === 0) respell = true;
      value = value * 16 + (code <= 57 ? code - 48 : code - 87);
      digits++;
    }
  }
  if (digits > 0) groups[count++] = value;
  const gapLength = gap < 0 ? 0 : 8 - count;
  if (gapLength > 0) {
    // The groups after `::` move to the end; zeros take their place.
    for (let from = count - 1, to = 7; from >= gap; from--, to--) groups[to] = groups[from]!;
    groups.fill(0, gap, gap + gapLength);
  }
  let bestStart = -1;
  let bestLength = 1; // a lone zero group is not compressed
  for (let index = 0; index < 8; ) {
    if (groups[index] !== 0) {
      index++;
      continue;
    }
    let run = index;
    while (run < 8 && groups[run] === 0) run++;
    if (run - index > bestLength) {
      bestStart = index;
      bestLength = run - index;
    }
    index = run;
  }
  if (!respell && (bestStart < 0 ? gap < 0 : gap === bestStart && gapLength === bestLength)) return address;
  let text = '';
  for (let index = 0; index < 8; index++) {
    if (index === bestStart) {
      text += '::';
      index += bestLength - 1;
      continue;
    }
    if (index > 0 && index !== bestStart + bestLength) text += ':';
    text += groups[index]!.toString(16);
  }
  return percent < 0 ? text : text + address.slice(percent);
}

/**
 * Whether a geo database can place the address: public unicast only. Private, loopback, link-local, shared
 * (carrier-grade NAT), documentation, multicast and reserved ranges are nobody's location; so are IPv6 addresses
 * outside 2000::/3 and the tunnels inside it (Teredo, 6to4). `address` is normaliseAddress's output.
 */
export function isGlobalAddress(address: string): boolean {
  const v4 = ipv4Number(address);
  if (v4 !== null) return isGlobalIPv4(v4);
  if (!address.includes(':')) return false;
  const [first, second] = leadingHextets(address);
  // 2000::/3 is the global unicast space; 2001::/23 (Teredo, ORCHID, benchmarking), 2001:db8::/32 and
  // 3fff::/20 (documentation) and 2002::/16 (6to4) are special-purpose ranges inside it.
  if ((first & 0xe000) !== 0x2000) return false;
  if (first === 0x2001 && (second < 0x200 || second === 0x0db8)) return false;
  if (first === 0x2002) return false;
  if (first === 0x3fff && second < 0x1000) return false;
  return true;
}

/** A dotted-quad IPv4 address as an unsigned 32-bit number, or null. Strict: four decimal parts, no leading zeros. */
export function ipv4Number(text: string): number | null {
  const length = text.length;
  if (length < 7 || length > 15) return null;
  let value = 0;
  let part = 0;
  let digits = 0;
  let dots = 0;
  for (let index = 0; index < length; index++) {
    const code = text.charCodeAt(index);
    if (code === 46) {
      if (digits === 0 || dots === 3) return null;
      value = value * 256 + part;
      part = 0;
      digits = 0;
      dots++;
    } else if (code >= 48 && code <= 57) {
      // A leading zero (`010`) is octal to some parsers and decimal to others: not an address we accept.
      if (digits > 0 && part === 0) return null;
      part = part * 10 + (code - 48);
      digits++;
      if (part > 255) return null;
    } else {
      return null;
    }
  }
  if (dots !== 3 || digits === 0) return null;
  return value * 256 + part;
}

/** The IANA special-purpose IPv4 ranges (RFC 6890 and later), as CIDR blocks. */
const SPECIAL_IPV4_BLOCKS: readonly string[] = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // shared address space (carrier-grade NAT)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation (TEST-NET-1)
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation (TEST-NET-2)
  '203.0.113.0/24', // documentation (TEST-NET-3)
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and the broadcast address
];

/** The same blocks as [first, last] numbers, worked out once: the check runs on every redirect. */
const SPECIAL_IPV4: readonly (readonly [number, number])[] = SPECIAL_IPV4_BLOCKS.map((block) => {
  const [base, prefix] = block.split('/');
  const first = ipv4Number(base!)!;
  return [first, first + 2 ** (32 - Number(prefix)) - 1] as const;
});

/** First octets that begin one of those blocks: most addresses are decided by one array read. */
const SPECIAL_FIRST_OCTETS = new Uint8Array(256);
for (const [first, last] of SPECIAL_IPV4) SPECIAL_FIRST_OCTETS.fill(1, Math.floor(first / 2 ** 24), Math.floor(last / 2 ** 24) + 1);

function isGlobalIPv4(value: number): boolean {
  if (SPECIAL_FIRST_OCTETS[Math.floor(value / 2 ** 24)] === 0) return true;
  for (const [first, last] of SPECIAL_IPV4) {
    if (value >= first && value <= last) return false;
  }
  return true;
}

/** `::ffff:1.2.3.4` or `::ffff:102:304` (lower case) as `1.2.3.4`; anything else undefined. */
function mappedIPv4(address: string): string | undefined {
  if (!address.startsWith('::ffff:')) return undefined;
  const tail = address.slice(7);
  if (tail.includes('.')) return ipv4Number(tail) === null ? undefined : tail;
  const match = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(tail);
  if (!match) return undefined;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
}

/** The first two 16-bit groups of a valid IPv6 address (0 where `::` stands for them). */
function leadingHextets(address: string): [number, number] {
  if (address.startsWith('::')) return [0, 0];
  const firstEnd = address.indexOf(':');
  const first = parseInt(address.slice(0, firstEnd), 16);
  const secondEnd = address.indexOf(':', firstEnd + 1);
  const second = secondEnd === firstEnd + 1 ? 0 : parseInt(address.slice(firstEnd + 1, secondEnd < 0 ? undefined : secondEnd), 16);
  return [first, Number.isNaN(second) ? 0 : second];
}
