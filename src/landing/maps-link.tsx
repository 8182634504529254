import { Icon } from './icons.js';

/**
 * A maps search for an address, as a link the phone opens in its maps app. Google's universal search URL, because
 * it is the one form both systems follow: Android opens Google Maps, an iPhone opens Google Maps when installed
 * and the maps website in Safari otherwise. `geo:` URIs do nothing in iOS Safari, and Apple's maps links fall back
 * to a web page on Android. The page itself requests nothing from the maps service: only a tap leaves it.
 * Line breaks become commas, which the search reads as an address's parts.
 */
export function mapsSearchUrl(address: string): string {
  const query = address
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(', ');
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** An address as written (its lines kept), linked to a maps search, with a pin. */
export function AddressOnMap({ address }: { address: string }) {
  return (
    <p class="t">
      <a class="o" href={mapsSearchUrl(address)} rel="nofollow noopener">
        <Icon name="mapPin" />
        <span>{address}</span>
      </a>
    </p>
  );
}
