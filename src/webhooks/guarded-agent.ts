import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net, { type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { addressRefusal, refusalMessage } from './url-guard.js';

/** A connection the address rule refused; no byte was sent. */
export class WebhookAddressRefusedError extends Error {
  readonly code = 'ERR_WEBHOOK_ADDRESS_REFUSED';
}

export interface GuardOptions {
  /** ALLOW_PRIVATE_WEBHOOK_URLS: connect anywhere (local development, tests). */
  allowPrivateAddresses: boolean;
  /** Resolves names instead of `dns.lookup` (tests point a name at loopback with it). */
  lookup?: LookupFunction;
}

/**
 * Wraps a resolver so that every address it answers is checked with the webhook address rule before a socket
 * uses it. One refused address refuses the name, as at registration: a name that mixes public and private
 * answers is a rebinding attempt or a misconfiguration either way.
 */
function guardedLookup(resolve: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const answers = Array.isArray(address) ? address : [{ address, family: family ?? 0 }];
      for (const answer of answers) {
        const reason = addressRefusal(answer.address);
        if (reason) return callback(refused(hostname, answer.address, reason), address, family);
      }
      callback(null, address, family);
    });
  };
}

function refused(host: string, address: string, reason: string): WebhookAddressRefusedError {
  return new WebhookAddressRefusedError(`webhook target must be a public address when connecting; ${refusalMessage(host, address, reason)}`);
}

/**
 * The check for one connection: an IP-literal host is judged here (net.connect does not look IP literals up, so
 * the lookup hook never sees them); a name gets the guarded resolver. Returns the options to connect with, or the
 * refusal.
 */
function guardConnection<T extends { host?: string | null; lookup?: LookupFunction }>(
  options: T,
  guard: GuardOptions,
): { options: T } | { error: WebhookAddressRefusedError } {
  const resolve = guard.lookup ?? options.lookup ?? (dns.lookup as LookupFunction);
  if (guard.allowPrivateAddresses) return { options: { ...options, lookup: resolve } };
  const host = (options.host ?? '').replace(/^\[(.*)\]$/, '$1');
  if (net.isIP(host) !== 0) {
    const reason = addressRefusal(host);
    if (reason) return { error: refused(host, host, reason) };
  }
  return { options: { ...options, lookup: guardedLookup(resolve) } };
}

/** A socket that fails at once, handed to the agent the way it expects a new connection. */
function failedConnection(error: Error, callback?: (err: Error | null, stream: Duplex) => void): Duplex {
  const socket = new net.Socket();
  if (callback) callback(error, socket);
  else socket.destroy(error);
  return socket;
}

/**
 * http.Agent that applies the webhook address rule to every connection it opens, in place of
 * request-filtering-agent (whose rule, ipaddr.js's `unicast`, lets IPv4-compatible ::/96, NAT64 64:ff9b:1::/48
 * and others through). Same hook as that library: `createConnection`, which the agent calls for each new socket,
 * so keep-alive reuse and `maxSockets` work as in any agent.
 */
export class GuardedHttpAgent extends http.Agent {
  constructor(
    options: http.AgentOptions,
    private readonly guard: GuardOptions,
  ) {
    super(options);
  }

  override createConnection(options: http.ClientRequestArgs, callback?: (err: Error | null, stream: Duplex) => void) {
    const checked = guardConnection(options as http.ClientRequestArgs & { lookup?: LookupFunction }, this.guard);
    if ('error' in checked) return failedConnection(checked.error, callback);
    return super.createConnection(checked.options, callback);
  }
}

/** The https counterpart of `GuardedHttpAgent` (tls.connect takes the same `lookup`). */
export class GuardedHttpsAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly guard: GuardOptions,
  ) {
    super(options);
  }

  override createConnection(options: https.RequestOptions, callback?: (err: Error | null, stream: Duplex) => void) {
    const checked = guardConnection(options as https.RequestOptions & { lookup?: LookupFunction }, this.guard);
    if ('error' in checked) return failedConnection(checked.error, callback);
    return super.createConnection(checked.options, callback);
  }
}
