import type { WifiContent } from './wifi.js';

/**
 * The `WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;` string phone cameras join networks from (the ZXing "WIFI:"
 * format that iOS and Android cameras read). Here, not in the landing pages, because it is also what a direct
 * Wi-Fi code's image encodes (src/codes/image-text.ts).
 */
export function wifiString(wifi: WifiContent): string {
  const type = wifi.security === 'none' ? 'nopass' : wifi.security;
  const password = wifi.password === undefined ? '' : `P:${escapeWifiField(wifi.password)};`;
  return `WIFI:T:${type};S:${escapeWifiField(wifi.ssid)};${password}${wifi.hidden ? 'H:true;' : ''};`;
}

/** `\`, `;`, `,`, `:` and `"` are backslash-escaped inside a WIFI string's fields, so a name cannot end a field. */
export function escapeWifiField(value: string): string {
  return value.replace(/[\\;,:"]/g, (c) => `\\${c}`);
}
