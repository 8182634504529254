import type { ScanRange } from '../../analytics/index.js';
import type { QrCode } from '../../codes/index.js';
import { Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { AnalyticsPanel, type AnalyticsData } from './analytics-panel.js';

export interface CodeAnalyticsProps {
  code: QrCode;
  data: AnalyticsData;
  /** The full page's address for a range (no script needed) and the panel's (what htmx swaps in). */
  pageHref: (range: ScanRange) => string;
  panelHref: (range: ScanRange) => string;
}

/** /codes/:id/analytics: one code's analytics as a page of its own, readable without JavaScript. */
export function CodeAnalyticsPage(props: CodeAnalyticsProps & { context: PageContext }) {
  const { code } = props;
  return (
    <Layout context={props.context} title={`Analytics of ${code.name}`}>
      <p>
        <a href={`/codes/${code.id}`}>← {code.name}</a>
      </p>
      <h1>Analytics of {code.name}</h1>
      <AnalyticsPanel
        data={props.data}
        level={2}
        rangeLink={(range) => ({ href: props.pageHref(range) })}
        csvHref={`/codes/${code.id}/scans.csv`}
        withCode={false}
        idPrefix="code"
      />
    </Layout>
  );
}

/**
 * The panel on the code's page: htmx loads it into `<section id="code-analytics">` and swaps it whole, so it is
 * that section again; its range links swap the panel in place and, without script, open the full page.
 */
export function CodeAnalyticsSection(props: CodeAnalyticsProps) {
  const { code } = props;
  return (
    <section id="code-analytics" aria-labelledby="code-analytics-heading">
      <h2 id="code-analytics-heading">Analytics</h2>
      <AnalyticsPanel
        data={props.data}
        level={3}
        rangeLink={(range) => ({ href: props.pageHref(range), hxGet: props.panelHref(range), hxTarget: '#code-analytics' })}
        csvHref={`/codes/${code.id}/scans.csv`}
        withCode={false}
        idPrefix="code-panel"
      />
      <p>
        <a href={props.pageHref(props.data.series.range)}>Open the analytics as a page</a>
      </p>
    </section>
  );
}
