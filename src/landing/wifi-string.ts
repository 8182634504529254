import type { WifiContent } from '../codes/types/index.js';
import { escapeWifiField } from './text-escaping.js';

/** The `WIFI:T:WPA;S:<ssid>;P:<password>;H:true;;` string phone cameras join networks from. */
export function wifiString(wifi: WifiContent): string {
  const type = wifi.security === 'none' ? 'nopass' : wifi.security;
  const password = wifi.password === undefined ? '' : `P:${escapeWifiField(wifi.password)};`;
  return `WIFI:T:${type};S:${escapeWifiField(wifi.ssid)};${password}${wifi.hidden ? 'H:true;' : ''};`;
}
