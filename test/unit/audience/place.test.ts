import { describe, expect, it } from 'vitest';
import { placeOf } from '../../../src/audience/place.js';

describe('placeOf, the record layouts operators bring', () => {
  it('reads MaxMind GeoLite2/GeoIP2 City (and DB-IP Lite City, which follows it)', () => {
    const record = {
      city: { geoname_id: 2867714, names: { de: 'München', en: 'Munich' } },
      continent: { code: 'EU', names: { en: 'Europe' } },
      country: { geoname_id: 2921044, iso_code: 'DE', names: { en: 'Germany' } },
      location: { latitude: 48.1, longitude: 11.6 },
      subdivisions: [{ iso_code: 'BY', names: { en: 'Bavaria', de: 'Bayern' } }, { names: { en: 'Upper Bavaria' } }],
    };
    expect(placeOf(record)).toEqual({ country: 'DE', region: 'Bavaria', city: 'Munich' });
    expect(placeOf({ country: { iso_code: 'FR', names: { en: 'France' } } })).toEqual({ country: 'FR', region: null, city: null });
  });

  it('reads the flat layouts: ip-location-db (the embedded default), IPinfo Lite and IPinfo country/city', () => {
    expect(placeOf({ country_code: 'DE' })).toEqual({ country: 'DE', region: null, city: null });
    expect(placeOf({ country_code: 'de', city: 'Hamburg', state1: 'Hamburg' })).toEqual({ country: 'DE', region: 'Hamburg', city: 'Hamburg' });
    expect(placeOf({ asn: 'AS3320', country: 'Germany', country_code: 'DE', continent_code: 'EU' })).toEqual({ country: 'DE', region: null, city: null });
    expect(placeOf({ country: 'JP', region: 'Tokyo', city: 'Shibuya' })).toEqual({ country: 'JP', region: 'Tokyo', city: 'Shibuya' });
  });

  it('gives null for what is not a valid value, and cuts overlong names', () => {
    expect(placeOf(null)).toEqual({ country: null, region: null, city: null });
    expect(placeOf('DE')).toEqual({ country: null, region: null, city: null });
    expect(placeOf({ registered_country: { iso_code: 'US' } })).toEqual({ country: null, region: null, city: null });
    for (const code of ['ZZ', 'XX', 'DEU', 'D', '', 'D1', 276, null]) {
      expect(placeOf({ country_code: code }).country, String(code)).toBeNull();
    }
    // No country, no place: a city without a country is not something the dashboard can show.
    expect(placeOf({ city: 'Somewhere' })).toEqual({ country: null, region: null, city: null });
    expect(placeOf({ country_code: 'DE', city: '  Köln  ', region: '' })).toEqual({ country: 'DE', region: null, city: 'Köln' });
    expect(placeOf({ country_code: 'DE', city: 'Bad\u0000Name', region: 'Right\u202eto left' })).toEqual({ country: 'DE', region: null, city: null });
    expect(placeOf({ country_code: 'DE', city: { names: { en: 42 } } }).city).toBeNull();
    expect(placeOf({ country_code: 'DE', city: 'Ü'.repeat(500) }).city).toBe('Ü'.repeat(100));
  });
});
