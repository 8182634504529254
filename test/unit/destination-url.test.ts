import { describe, expect, it } from 'vitest';
import { MAX_URL_LENGTH, parseDestinationUrl } from '../../src/destination-url.js';

describe('parseDestinationUrl', () => {
  it.each([
    ['https://example.com/spring', 'https://example.com/spring'],
    ['HTTPS://Example.COM', 'https://example.com/'],
    ['http://example.com', 'http://example.com/'],
    ['https://example.com/café', 'https://example.com/caf%C3%A9'],
    ['https://example.com/春', 'https://example.com/%E6%98%A5'],
    ['https://bücher.de/x', 'https://xn--bcher-kva.de/x'],
    ['https://例え.jp/', 'https://xn--r8jz45g.jp/'],
    ['http://example.com:8080/a', 'http://example.com:8080/a'],
    ['https://example.com:8443/', 'https://example.com:8443/'],
    ['https://example.com:443/a', 'https://example.com/a'],
    ['http://example.com:80/', 'http://example.com/'],
    ['https://example.com/a?b=1&c=2', 'https://example.com/a?b=1&c=2'],
    ['https://example.com/a?q=c d', 'https://example.com/a?q=c%20d'],
    ['https://example.com/a#section-2', 'https://example.com/a#section-2'],
    ['https://example.com/a?b=1#frag', 'https://example.com/a?b=1#frag'],
    ['https://example.com/a/../b/./c', 'https://example.com/b/c'],
    ['http://127.0.0.1:3000/x', 'http://127.0.0.1:3000/x'],
    ['http://[::1]:8080/', 'http://[::1]:8080/'],
    ['  https://example.com/  ', 'https://example.com/'],
  ])('accepts %j as %j', (raw, href) => {
    expect(parseDestinationUrl(raw)).toEqual({ ok: true, href });
  });

  it('accepts a URL of exactly 2048 characters', () => {
    const raw = `https://example.com/${'a'.repeat(MAX_URL_LENGTH - 'https://example.com/'.length)}`;
    expect(raw).toHaveLength(2048);
    expect(parseDestinationUrl(raw)).toEqual({ ok: true, href: raw });
  });

  it.each([
    ['an ftp URL', 'ftp://example.com/file', 'must use http or https'],
    ['a javascript: URL', 'javascript:alert(1)', 'must use http or https'],
    ['a mailto: URL', 'mailto:someone@example.com', 'must use http or https'],
    ['a data: URL', 'data:text/html,<script>alert(1)</script>', 'must use http or https'],
    ['a file: URL', 'file:///etc/passwd', 'must use http or https'],
    ['a relative path', '/spring', 'must be an absolute URL'],
    ['a bare host name', 'example.com', 'must be an absolute URL'],
    ['an empty string', '', 'must be an absolute URL'],
    ['a scheme without host', 'http://', 'must be an absolute URL'],
    ['a host with a space', 'https://exa mple.com', 'must be an absolute URL'],
    ['a user and password', 'https://user:pw@example.com/', 'must not contain credentials'],
    ['a user name only', 'https://user@example.com/', 'must not contain credentials'],
    ['a password only', 'https://:pw@example.com/', 'must not contain credentials'],
    ['a URL of 2049 characters', `https://example.com/${'a'.repeat(2029)}`, 'must be at most 2048 characters'],
    [
      'a URL that grows past 2048 characters when percent-encoded',
      `https://example.com/${'é'.repeat(1000)}`,
      'must be at most 2048 characters once normalized',
    ],
  ])('rejects %s', (_label, raw, message) => {
    expect(parseDestinationUrl(raw)).toEqual({ ok: false, message });
  });
});
