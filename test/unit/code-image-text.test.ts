import { describe, expect, it } from 'vitest';
import { imageText } from '../../src/codes/image-text.js';
import { wifiString } from '../../src/codes/types/wifi-string.js';
import { CODE_TYPES } from '../../src/codes/types/index.js';

const SITE = 'https://qr.example.com';

describe('what a code image encodes', () => {
  it('is the short URL (upper-cased for alphanumeric mode) for every type but a direct Wi-Fi code', () => {
    expect(imageText({ type: 'TEXT', slug: '7K3M9QXD', content: { text: 'hi' } }, SITE)).toBe('HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD');
    expect(imageText({ type: 'WIFI', slug: '7K3M9QXD', content: { ssid: 'Cafe', security: 'none' } }, SITE)).toBe('HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD');
    expect(imageText({ type: 'WIFI', slug: '7K3M9QXD', content: { ssid: 'Cafe', security: 'none', direct: false } }, SITE)).toBe('HTTPS://QR.EXAMPLE.COM/R/7K3M9QXD');
  });

  it('is the WIFI: string for a Wi-Fi code set to join directly', () => {
    const content = { ssid: 'Cafe', security: 'WPA', password: 'coffee-2027', direct: true };
    expect(imageText({ type: 'WIFI', slug: '7K3M9QXD', content }, SITE)).toBe('WIFI:T:WPA;S:Cafe;P:coffee-2027;;');
  });

  it('accepts direct only as true or false in stored content', () => {
    expect(CODE_TYPES.WIFI.parse({ ssid: 'Cafe', security: 'none', direct: true })).toMatchObject({ ok: true, content: { direct: true } });
    expect(CODE_TYPES.WIFI.parse({ ssid: 'Cafe', security: 'none', direct: 'yes' })).toMatchObject({ ok: false });
  });
});

describe('WIFI string', () => {
  it.each([
    [{ ssid: 'Cafe', security: 'WPA' as const, password: 'secret123' }, 'WIFI:T:WPA;S:Cafe;P:secret123;;'],
    [{ ssid: 'Open', security: 'none' as const }, 'WIFI:T:nopass;S:Open;;'],
    [{ ssid: 'Old', security: 'WEP' as const, password: 'abcde', hidden: true }, 'WIFI:T:WEP;S:Old;P:abcde;H:true;;'],
    // Every special of the format escaped with a backslash, the backslash itself first.
    [{ ssid: 'a\\b;c,d:e"f', security: 'WPA' as const, password: ';;,,::""\\\\' }, 'WIFI:T:WPA;S:a\\\\b\\;c\\,d\\:e\\"f;P:\\;\\;\\,\\,\\:\\:\\"\\"\\\\\\\\;;'],
    // Spaces and non-ASCII are kept as they are (UTF-8 in the code).
    [{ ssid: ' Café 5G ', security: 'WPA' as const, password: ' pass word ' }, 'WIFI:T:WPA;S: Café 5G ;P: pass word ;;'],
  ])('%o → %s', (wifi, expected) => {
    expect(wifiString(wifi)).toBe(expected);
  });
});
