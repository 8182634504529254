import type { RoutedScanCount } from '../../analytics/routed-scans.js';
import type { ScanRange } from '../../analytics/index.js';
import type { QrCode } from '../../codes/index.js';
import { Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { AnalyticsPanel, type AnalyticsData, type AnalyticsLinks } from './analytics-panel.js';
import { RoutingBreakdown } from './routing-breakdown.js';

export interface CodeAnalyticsProps {
  code: QrCode;
  data: AnalyticsData;
  /** The full page's links (no script needed). */
  pageLinks: AnalyticsLinks;
  /** The panel's: its range links swap the panel in place with htmx, and open the full page without script. */
  panelLinks: AnalyticsLinks;
  /** The full page's address for the current view. */
  pageHref: string;
}

/**
 * /codes/:id/analytics: one code's analytics as a page of its own, readable without JavaScript. A routed code's
 * page (not the panel on the code's page, kept quick) adds its scans per rule and variant.
 */
export function CodeAnalyticsPage(props: CodeAnalyticsProps & { context: PageContext; routed?: { counts: RoutedScanCount[]; range: ScanRange } | undefined }) {
  const { code } = props;
  return (
    <Layout context={props.context} title={`Analytics of ${code.name}`}>
      <p>
        <a href={`/codes/${code.id}`}>← {code.name}</a>
      </p>
      <h1>Analytics of {code.name}</h1>
      <AnalyticsPanel data={props.data} level={2} links={props.pageLinks} withCode={false} idPrefix="code" />
      {props.routed && code.routing && <RoutingBreakdown codeId={code.id} routing={code.routing} counts={props.routed.counts} range={props.routed.range} />}
    </Layout>
  );
}

/**
 * The panel on the code's page: htmx loads it into `<section id="code-analytics">` and swaps it whole, so it is
 * that section again; its range links swap the panel in place and, without script, open the full page. A filter
 * opens the full page (a filtered view is an address of its own, to share).
 */
export function CodeAnalyticsSection(props: CodeAnalyticsProps) {
  return (
    <section id="code-analytics" aria-labelledby="code-analytics-heading">
      <h2 id="code-analytics-heading">Analytics</h2>
      <AnalyticsPanel data={props.data} level={3} links={props.panelLinks} withCode={false} idPrefix="code-panel" />
      <p>
        <a href={props.pageHref}>Open the analytics as a page</a>
      </p>
    </section>
  );
}
