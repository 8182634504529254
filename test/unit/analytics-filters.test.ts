import { describe, expect, it } from 'vitest';
import { filterParams, FILTERABLE_DEVICES, parseScanFilters } from '../../src/analytics/scan-filters.js';
import { DEVICE_CLASSES } from '../../src/redirect/user-agent.js';

describe('analytics filters from a URL', () => {
  it('takes a country, device, OS, browser and language, normalised', () => {
    expect(parseScanFilters({ country: 'de', device: 'mobile', os: 'iOS', browser: 'Mobile Safari', language: 'DE', range: '7d' })).toEqual({
      filters: { country: 'DE', device: 'mobile', os: 'iOS', browser: 'Mobile Safari', language: 'de' },
      ignored: [],
    });
    expect(parseScanFilters({ os: 'Mac OS', browser: 'Chrome WebView' }).filters).toEqual({ os: 'Mac OS', browser: 'Chrome WebView' });
    expect(parseScanFilters({ country: '', language: '' })).toEqual({ filters: {}, ignored: [] });
  });

  it('leaves out what is not a filter value, and says why (never an error: a shared link still opens)', () => {
    const { filters, ignored } = parseScanFilters({
      country: 'Germany',
      device: 'phone',
      os: '<script>',
      browser: 'x'.repeat(65),
      language: 'de-DE',
    });
    expect(filters).toEqual({});
    expect(ignored.map((i) => [i.key, i.reason])).toEqual([
      ['country', 'not a two-letter country code'],
      ['device', 'not a kind of device'],
      ['os', 'not an operating system name'],
      ['browser', 'not a browser name'],
      ['language', 'not a language code'],
    ]);
    expect(parseScanFilters({ country: ['DE', 'FR'] }).ignored).toEqual([{ key: 'country', value: 'DE,FR', reason: 'given more than once' }]);
  });

  it('knows every device class the redirect records, and links filters in one order', () => {
    expect([...FILTERABLE_DEVICES].sort()).toEqual([...DEVICE_CLASSES].sort());
    expect(filterParams({ language: 'de', country: 'DE' })).toEqual([['country', 'DE'], ['language', 'de']]);
  });
});
