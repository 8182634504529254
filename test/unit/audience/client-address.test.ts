import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress, compileProxyTrust } from '../../../src/audience/client-address.js';
import { isGlobalAddress, normaliseAddress } from '../../../src/audience/ip-address.js';
import { visitorHash } from '../../../src/audience/visitor-hash.js';
import { loadConfig } from '../../../src/config.js';

/** What node:http hands the redirect handler, as far as the client address goes. */
function request(socketAddress: string | undefined, forwardedFor?: string): IncomingMessage {
  const headers = forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor };
  return { headers, socket: { remoteAddress: socketAddress } } as unknown as IncomingMessage;
}

/** TRUST_PROXY as the operator writes it, through config.ts as the server reads it. */
const trust = (value: string | undefined) => compileProxyTrust(loadConfig(value === undefined ? {} : { TRUST_PROXY: value }).trustProxy);

describe('clientAddress', () => {
  it('is the socket peer when no proxy is trusted, whatever X-Forwarded-For claims', () => {
    for (const setting of [undefined, 'false', '0']) {
      expect(clientAddress(request('203.0.113.9', '8.8.8.8'), trust(setting)), String(setting)).toBe('203.0.113.9');
    }
    expect(clientAddress(request('::ffff:203.0.113.9', '8.8.8.8'), false)).toBe('203.0.113.9');
    expect(clientAddress(request('2001:DB8::9'), false)).toBe('2001:db8::9');
  });

  it('is the forwarded client behind a trusted proxy, by name, CIDR list, hop count or true', () => {
    const viaLoopback = request('::ffff:127.0.0.1', '8.8.8.8');
    expect(clientAddress(viaLoopback, trust('loopback'))).toBe('8.8.8.8');
    expect(clientAddress(viaLoopback, trust('true'))).toBe('8.8.8.8');
    expect(clientAddress(viaLoopback, trust('1'))).toBe('8.8.8.8');
    expect(clientAddress(viaLoopback, 'loopback')).toBe('8.8.8.8');
    expect(clientAddress(request('10.0.0.5', '8.8.8.8'), trust('10.0.0.0/8, 172.16.0.0/12'))).toBe('8.8.8.8');
  });

  it('stops at the first hop it does not trust, so a client cannot forge its address through a trusted proxy', () => {
    // The client sent "X-Forwarded-For: 1.1.1.1" itself; the proxy appended the address it saw.
    const forged = request('10.0.0.5', '1.1.1.1, 8.8.8.8');
    expect(clientAddress(forged, trust('10.0.0.0/8'))).toBe('8.8.8.8');
    expect(clientAddress(forged, trust('1'))).toBe('8.8.8.8');
    // Two proxies (a CDN in front of a balancer): two hops trusted reach the address the CDN saw.
    expect(clientAddress(forged, trust('2'))).toBe('1.1.1.1');
    // A proxy not in the list is a client like any other.
    expect(clientAddress(request('192.168.1.1', '8.8.8.8'), trust('10.0.0.0/8'))).toBe('192.168.1.1');
    expect(clientAddress(request('203.0.113.9', '8.8.8.8'), trust('loopback'))).toBe('203.0.113.9');
  });

  it('normalises what proxies write: IPv4-mapped, ports, brackets, case', () => {
    expect(clientAddress(request('127.0.0.1', '::ffff:8.8.8.8'), trust('loopback'))).toBe('8.8.8.8');
    expect(clientAddress(request('127.0.0.1', '8.8.8.8:51234'), trust('loopback'))).toBe('8.8.8.8');
    expect(clientAddress(request('127.0.0.1', '[2001:DB8::1]:443'), trust('loopback'))).toBe('2001:db8::1');
  });

  it('is null when there is no address: a closed socket, or a forwarded hop that is not one', () => {
    expect(clientAddress(request(undefined), false)).toBeNull();
    expect(clientAddress(request('127.0.0.1', 'unknown'), trust('loopback'))).toBeNull();
    expect(clientAddress(request('127.0.0.1', '_hidden'), trust('loopback'))).toBeNull();
  });
});

describe('normaliseAddress and isGlobalAddress', () => {
  it('spells one address one way', () => {
    expect(normaliseAddress('8.8.8.8')).toBe('8.8.8.8');
    expect(normaliseAddress(' 8.8.8.8 ')).toBe('8.8.8.8');
    expect(normaliseAddress('::ffff:8.8.8.8')).toBe('8.8.8.8');
    expect(normaliseAddress('::ffff:808:808')).toBe('8.8.8.8');
    expect(normaliseAddress('2A00:1450::200E')).toBe('2a00:1450::200e');
    for (const junk of ['', '8.8.8', '08.8.8.8', '8.8.8.256', '8.8.8.8:', '8.8.8.8:port', '[::1', '[::1]x', 'a:b', '1::2::3']) {
      expect(normaliseAddress(junk), junk).toBeNull();
    }
  });

  it('spells an IPv6 address in RFC 5952 form, so one client is one visitor however its address was written', () => {
    for (const spelling of ['2001:db8:0:0::1', '2001:0db8::1', '2001:DB8:0:0:0:0:0:1', '[2001:db8:0000::0001]:443']) {
      expect(normaliseAddress(spelling), spelling).toBe('2001:db8::1');
    }
    const secret = Buffer.alloc(32, 7);
    expect(visitorHash(secret, normaliseAddress('2001:db8:0:0::1')!, 'phone')).toBe(visitorHash(secret, normaliseAddress('2001:0db8::1')!, 'phone'));
    // The longest run of zero groups is the one compressed (the first of equal ones), never a lone zero group.
    expect(normaliseAddress('2001:0:0:1:0:0:0:1')).toBe('2001:0:0:1::1');
    expect(normaliseAddress('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normaliseAddress('2001:db8::1:0:0:1')).toBe('2001:db8::1:0:0:1');
    expect(normaliseAddress('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1');
    expect(normaliseAddress('2001:db8:0:1:1:1:1::')).toBe('2001:db8:0:1:1:1:1:0');
    expect(normaliseAddress('0:0:0:0:0:0:0:0')).toBe('::');
    expect(normaliseAddress('0:0:0:0:0:0:0:1')).toBe('::1');
    expect(normaliseAddress('2A00:1450:4001:080B:0000:0000:0000:200E')).toBe('2a00:1450:4001:80b::200e');
    // An IPv4 tail is two groups; mapped addresses, however written, are the IPv4 address.
    expect(normaliseAddress('64:ff9b::8.8.8.8')).toBe('64:ff9b::808:808');
    expect(normaliseAddress('0:0:0:0:0:ffff:808:808')).toBe('8.8.8.8');
    expect(normaliseAddress('::FFFF:0808:0808')).toBe('8.8.8.8');
    expect(normaliseAddress('fe80:0::1%eth0')).toBe('fe80::1%eth0');
  });

  it('calls only public unicast addresses global', () => {
    for (const address of ['8.8.8.8', '1.1.1.1', '100.63.255.255', '100.128.0.0', '172.32.0.1', '2001:218::1', '2a00:1450::1', '2001:200::1']) {
      expect(isGlobalAddress(address), address).toBe(true);
    }
    for (const address of ['100.64.0.0', '172.31.255.255', '198.19.0.1', '2001::1', '2001:1ff::1', '2001:db8::1', '2002:808:808::1', '3fff::1', '64:ff9b::808:808', '::', '::1']) {
      expect(isGlobalAddress(address), address).toBe(false);
    }
  });
});
