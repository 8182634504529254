import type { ComponentChildren } from 'preact';

/**
 * The box around a table that may be wider than a phone: it scrolls sideways by itself, so the page never does.
 * A keyboard can scroll it too (tabindex 0, WCAG 2.1.1; axe's scrollable-region-focusable), and a screen reader
 * names the stop it lands on (a labelled region: by a heading's id, or a label when the table has no heading).
 */
export function TableRegion(props: ({ labelledBy: string } | { label: string }) & { children: ComponentChildren }) {
  return (
    <div
      class="table-scroll"
      tabIndex={0}
      role="region"
      aria-labelledby={'labelledBy' in props ? props.labelledBy : undefined}
      aria-label={'label' in props ? props.label : undefined}
    >
      {props.children}
    </div>
  );
}
