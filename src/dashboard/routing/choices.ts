import { COUNTRY_CODES, type DeviceClass, type Weekday } from '../../routing/index.js';
import { countryName } from './rule-summary.js';

export const DEVICE_LABELS: Record<DeviceClass, string> = {
  mobile: 'Phone', tablet: 'Tablet', desktop: 'Computer', smarttv: 'Smart TV', console: 'Game console', wearable: 'Wearable',
  embedded: 'Embedded', unknown: 'Unknown',
};

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday',
};

/** Every country code rules accept, with its English name, by name: the countries field's suggestions. */
export const COUNTRY_OPTIONS: ReadonlyArray<{ value: string; label: string }> = [...COUNTRY_CODES]
  .map((code) => ({ value: code, label: countryName(code) }))
  .sort((a, b) => a.label.localeCompare(b.label, 'en'));
