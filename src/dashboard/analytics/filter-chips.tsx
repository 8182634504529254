import type { FilterKey, IgnoredFilter, ScanFilters } from '../../analytics/scan-filters.js';
import { filterParams } from '../../analytics/scan-filters.js';
import { valueText } from './format.js';
import { countryName, languageName } from './place-names.js';

const KEY_NAMES: Record<FilterKey, string> = {
  country: 'Country',
  device: 'Device',
  os: 'OS',
  browser: 'Browser',
  language: 'Language',
};

/** A filter's value as people read it: "Germany", "German", "Mobile", "iOS". */
export function filterValueText(key: FilterKey, value: string): string {
  if (key === 'country') return countryName(value);
  if (key === 'language') return languageName(value);
  return valueText(value, key === 'device');
}

/**
 * The page's filters as chips, each a link to the page without it (so removing one works without script and
 * keeps the address shareable), and what the address held that is not a filter.
 */
export function FilterChips(props: {
  filters: ScanFilters;
  ignored: readonly IgnoredFilter[];
  removeHref: (key: FilterKey) => string;
  clearHref: string;
}) {
  const active = filterParams(props.filters);
  if (active.length === 0 && props.ignored.length === 0) return null;
  return (
    <div class="filter-chips">
      {active.length > 0 && (
        <>
          <p>
            <strong>Filtered:</strong> every number below counts only scans matching all of these.
          </p>
          <ul aria-label="Filters">
            {active.map(([key, value]) => (
              <li>
                <a href={props.removeHref(key)} class="chip" aria-label={`Remove filter ${KEY_NAMES[key]}: ${filterValueText(key, value)}`}>
                  {KEY_NAMES[key]}: {filterValueText(key, value)} <span aria-hidden="true">×</span>
                </a>
              </li>
            ))}
            {active.length > 1 && (
              <li>
                <a href={props.clearHref}>Remove all filters</a>
              </li>
            )}
          </ul>
        </>
      )}
      {props.ignored.length > 0 && (
        <p class="notice" role="status">
          Left out of the address:{' '}
          {props.ignored.map((ignored, index) => (
            <>
              {index > 0 && '; '}
              <code>
                {ignored.key}={ignored.value}
              </code>{' '}
              ({ignored.reason})
            </>
          ))}
          .
        </p>
      )}
    </div>
  );
}
