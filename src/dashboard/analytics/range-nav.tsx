import { SCAN_RANGES, type ScanRange } from '../../analytics/scan-ranges.js';
import { RANGE_LABELS, rangeWords } from './format.js';

/** Where a range link goes: a page address (works without script) and, in a panel, what htmx swaps in instead. */
export interface RangeLink {
  href: string;
  hxGet?: string;
  hxTarget?: string;
}

/** The ranges as links, the current one marked with aria-current (plain links: a range is an address). */
export function RangeNav(props: { current: ScanRange; link: (range: ScanRange) => RangeLink; label: string }) {
  return (
    <nav aria-label={props.label} class="range-nav">
      <ul>
        {SCAN_RANGES.map((range) => {
          const link = props.link(range);
          return (
            <li>
              <a
                href={link.href}
                hx-get={link.hxGet}
                hx-target={link.hxTarget}
                hx-swap={link.hxGet ? 'outerHTML' : undefined}
                aria-current={range === props.current ? 'true' : undefined}
                title={rangeWords(range)}
              >
                {RANGE_LABELS[range]}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
