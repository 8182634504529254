import type { ComponentChildren } from 'preact';

/**
 * The box around a table that may be wider than a phone: it scrolls sideways by itself, so the page never does.
 * A keyboard can scroll it too (tabindex 0, WCAG 2.1.1; axe's scrollable-region-focusable), and a screen reader
 * names the stop it lands on: a labelled region. Its label must differ from the section around it ("Recent scans
 * table" in the section "Recent scans"), since both are landmarks and two of one name cannot be told apart.
 */
export function TableRegion(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-scroll" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}
