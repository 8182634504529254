import { Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import { AnalyticsPanel, type AnalyticsData, type AnalyticsLinks } from './analytics-panel.js';

/** /analytics: the whole account's scans, deleted codes included (their scans happened). */
export function AccountAnalyticsPage(props: { context: PageContext; data: AnalyticsData; links: AnalyticsLinks }) {
  return (
    <Layout context={props.context} title="Analytics">
      <h1>Analytics</h1>
      <p>Scans of all the account's codes, including deleted ones.</p>
      <AnalyticsPanel data={props.data} level={2} links={props.links} withCode idPrefix="account" />
    </Layout>
  );
}
