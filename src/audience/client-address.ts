import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from 'proxy-addr';
import { normaliseAddress } from './ip-address.js';

/** TRUST_PROXY as config.ts reads it: Express's `trust proxy` value. */
export type TrustProxySetting = boolean | number | string;

/** Whether the hop at `address`, `hops` from the server (0: the socket's peer), may name the one before it. */
export type ProxyTrust = (address: string, hops: number) => boolean;

/**
 * TRUST_PROXY compiled the way Express compiles `trust proxy` (express/lib/utils.js, compileTrust), so the redirect
 * path, a bare node:http handler, sees the same client as the API and the sign-in limit (req.ip): `true` trusts
 * every hop, a number that many hops, a string a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal` and `uniquelocal`. Compile once: a CIDR list is parsed here, not per request.
 */
export function compileProxyTrust(setting: TrustProxySetting): ProxyTrust {
  if (setting === true) return () => true;
  if (setting === 0) return TRUST_NONE;
  if (typeof setting === 'number') return (_address, hops) => hops < setting;
  if (setting === false || setting === '') return TRUST_NONE;
  return proxyAddr.compile(setting.split(',').map((entry) => entry.trim()));
}

// One function, so clientAddress can tell "trust nobody" apart and skip parsing X-Forwarded-For.
const TRUST_NONE: ProxyTrust = () => false;

/**
 * The client's address: the socket's peer, or, when that peer is a trusted proxy, the nearest X-Forwarded-For hop
 * that is not (proxy-addr's rule, which Express's req.ip uses). Normalised (ip-address.ts): an IPv4-mapped
 * address is the IPv4 one, a port is dropped. Null when there is none to be had: the socket already closed, or the
 * forwarded hop is not an address at all (`unknown`, a proxy's obfuscated name).
 *
 * `trust` is compileProxyTrust's result (the hot path compiles once); a TRUST_PROXY value is compiled on each call.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust | TrustProxySetting): string | null {
  const compiled = typeof trust === 'function' ? trust : compileProxyTrust(trust);
  const { socket } = req;
  const peer = socket.remoteAddress;
  if (peer === undefined) return null;
  // Without a trusted proxy X-Forwarded-For is anyone's to write: skip parsing it at all.
  if (compiled === TRUST_NONE) return normaliseAddress(peer);
  // On the redirect path, per scan: proxy-addr parses every hop with ipaddr.js (about 20 µs a scan, measured in
  // `npm run bench:profile`). The peer's trust is asked once per connection (keep-alive connections from a proxy
  // carry thousands of scans), and the common single hop is read directly: the one address after a trusted peer is
  // the client whether or not it is trusted itself, which is what proxy-addr answers too.
  let peerTrusted = peerTrust.get(socket);
  if (peerTrusted === undefined) peerTrust.set(socket, (peerTrusted = compiled(peer, 0)));
  if (!peerTrusted) return normaliseAddress(peer);
  const forwarded = req.headers['x-forwarded-for'];
  if (forwarded === undefined) return normaliseAddress(peer);
  if (typeof forwarded === 'string' && forwarded.indexOf(',') === -1 && forwarded.trim() !== '') return normaliseAddress(forwarded.trim());
  return normaliseAddress(proxyAddr(req, compiled));
}

/**
 * Whether each connection's peer is a trusted proxy, asked once per connection. Keyed weakly by the socket, so an
 * entry goes with its connection; a socket's peer address never changes.
 */
const peerTrust = new WeakMap<Socket, boolean>();
