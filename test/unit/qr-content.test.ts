import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import { qrContentFor } from '../../src/qr/render.js';

describe('qrContentFor', () => {
  it.each([
    ['https://qr.example.com/r/7K3M9QXD', 'https://qr.example.com', 'HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD'],
    ['http://localhost:3000/r/7K3M9QXD', 'http://localhost:3000', 'HTTP://LOCALHOST:3000/R/7K3M9QXD'],
    // A path prefix may be case-sensitive behind a proxy: keep the URL exactly as it is.
    ['https://example.com/qr/r/7K3M9QXD', 'https://example.com/qr', 'https://example.com/qr/r/7K3M9QXD'],
    // A host with a character outside QR alphanumeric mode gains nothing from upper-casing.
    ['https://my_host.example/r/7K3M9QXD', 'https://my_host.example', 'https://my_host.example/r/7K3M9QXD'],
  ])('encodes %s (SITE_URL %s) as %s', (shortUrl, siteUrl, expected) => {
    expect(qrContentFor(shortUrl, siteUrl)).toBe(expected);
  });

  it('makes a smaller code for a typical short URL', () => {
    const shortUrl = 'https://qr.example.com/r/7K3M9QXD';
    const content = qrContentFor(shortUrl, 'https://qr.example.com');
    expect(QRCode.create(content, { errorCorrectionLevel: 'M' }).version).toBe(2);
    expect(QRCode.create(shortUrl, { errorCorrectionLevel: 'M' }).version).toBe(3);
  });
});
