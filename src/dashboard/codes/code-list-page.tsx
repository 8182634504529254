import { Flash, Layout } from '../shared/layout.js';
import type { PageContext } from '../shared/context.js';
import type { ListQuery } from './list-query.js';
import { CodeResults, type CodeResultsData } from './code-results.js';
import { PlanUsageLine, type PlanUsage } from './plan-usage-line.js';

/**
 * The code list. The search form is a plain GET form; with JavaScript, htmx sends it as the person types
 * (active search) and swaps only the results, keeping the URL in step so the page can be shared and reloaded.
 */
export function CodeListPage(props: { context: PageContext; query: ListQuery; data: CodeResultsData; usage: PlanUsage; deleted: boolean }) {
  const { query } = props;
  return (
    <Layout context={props.context} title="Codes">
      <div class="page-heading">
        <h1>Codes</h1>
        {/* A link that looks like a button: it opens a page, so screen readers announce it as a link. */}
        <a href="/codes/new" class="link-button">
          New code
        </a>
      </div>
      {props.deleted && <Flash kind="ok">The code was deleted. Its short URL no longer leads anywhere.</Flash>}
      <PlanUsageLine usage={props.usage} />
      {/* No role="search": Pico draws it as one rounded pill around every field. */}
      <form
        method="get"
        action="/codes"
        class="code-filter"
        hx-get="/codes"
        hx-target="#code-results"
        hx-swap="outerHTML"
        hx-trigger="input delay:300ms, submit"
        hx-push-url="true"
      >
        <div>
          <label for="code-search">Search</label>
          <input id="code-search" name="q" type="search" value={query.q} placeholder="Part of a name" autocomplete="off" />
        </div>
        <div>
          <label for="code-state">State</label>
          <select id="code-state" name="state">
            <option value="all" selected={query.state === 'all'}>
              All
            </option>
            <option value="active" selected={query.state === 'active'}>
              Active
            </option>
            <option value="paused" selected={query.state === 'paused'}>
              Paused
            </option>
          </select>
        </div>
        <button type="submit">Search</button>
      </form>
      <CodeResults query={query} data={props.data} />
    </Layout>
  );
}
