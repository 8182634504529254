import type { ScanStep } from './scan-steps.js';

/**
 * The key to a map's or heatmap's shades: a swatch and the counts each stands for, "none" first. It is the figure's
 * caption, so `summary` (read by screen readers only) names a picture they cannot see.
 */
export function ScaleLegend(props: { steps: readonly ScanStep[]; label: string; summary?: string }) {
  return (
    <figcaption class="scale-legend">
      {props.summary && <span class="visually-hidden">{props.summary}</span>}
      <span class="scale-label">{props.label}</span>
      <span class="scale-key">
        <span class="swatch shade-0" /> none
      </span>
      {props.steps.map((step) => (
        <span class="scale-key">
          <span class={`swatch shade-${step.shade}`} /> {step.label}
        </span>
      ))}
    </figcaption>
  );
}
