/**
 * `redirect-routing` (not run by default): the redirect of a code with 20 routing rules, the last of which matches,
 * side by side with a plain code and a bare node:http server (issue 28: at least 0.45 of bare at 100 connections,
 * where a plain code is about 0.5). Each round loads the three in turn (rotating which goes first) with the usual
 * load generator (load.ts: phones of one German provider's block through a trusted proxy), and prints each one's
 * req/s, p50/p99 and its ratio to bare, then the medians.
 *
 * The 19 rules before the last pass their system and device checks and fail on the country, as a rule for another
 * market would; the last reads the local weekday in Europe/Berlin (so the per-minute clock is part of the cost)
 * and matches every phone. Each 302 of the routed code goes to the last rule's URL (checked once before the load).
 */
import { sql } from 'kysely';
import { createAccount } from '../../src/accounts/account-service.js';
import { createApiKey } from '../../src/accounts/api-keys.js';
import { createQrCode } from '../../src/codes/qr-code-service.js';
import type { Database } from '../../src/db/schema/index.js';
import { newId } from '../../src/ids.js';
import { DEVICE_CLASSES, MAX_RULES, parseRouting, WEEKDAYS } from '../../src/routing/index.js';
import { fmt, load, type LoadResult, median, startBareAndQroute, stop } from './processes.js';

const OTHER_MARKETS = ['FR', 'IT', 'ES', 'NL', 'BE', 'PL', 'SE', 'DK', 'NO', 'FI', 'PT', 'IE', 'GR', 'CZ', 'HU', 'RO', 'BG', 'HR', 'SK'];
const MATCHED = 'https://example.com/last-rule';

/** Twenty rules, the last matching every scan the load generator sends: the most a routed scan costs. */
export function twentyRules() {
  const rules: Array<{ name: string; when: Record<string, string[]>; destinationUrl: string }> = OTHER_MARKETS.slice(0, MAX_RULES - 1).map((country) => ({
    name: `Phones in ${country}`,
    when: { os: ['iOS', 'Android'], devices: ['mobile', 'tablet'], countries: [country] },
    destinationUrl: `https://example.com/${country.toLowerCase()}`,
  }));
  rules.push({ name: 'Every day, everywhere', when: { devices: [...DEVICE_CLASSES], weekdays: [...WEEKDAYS] }, destinationUrl: MATCHED });
  const parsed = parseRouting({ timeZone: 'Europe/Berlin', rules }, null, () => newId('rul'));
  if (!parsed.ok) throw new Error(`bench routing refused: ${JSON.stringify(parsed.problems)}`);
  return parsed.routing;
}

export async function benchRedirectRouting(
  database: { db: Database; connectionString: string },
  options: { rounds: number; seconds: number; connections: number[] },
): Promise<string[]> {
  const account = await createAccount(database.db, { name: 'routing bench', plan: 'business' });
  const key = await createApiKey(database.db, account.id);
  const make = async (name: string) =>
    (await createQrCode(database.db, { accountId: account.id, name, destinationUrl: 'https://example.com/plain', actor: { kind: 'api_key', apiKeyId: key.id } })).code;
  const plain = await make('plain poster');
  const routed = await make('routed poster');
  await sql`update qr_codes set routing = ${JSON.stringify(twentyRules())}::jsonb where id = ${routed.id}`.execute(database.db);

  const { bare, barePort, qroute, qroutePort } = await startBareAndQroute(database.connectionString);
  const lines: string[] = [];
  try {
    const check = await fetch(`http://127.0.0.1:${qroutePort}/r/${routed.slug}`, {
      method: 'HEAD',
      redirect: 'manual',
      headers: { 'User-Agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'X-Forwarded-For': '85.214.1.1' },
    });
    if (check.headers.get('location') !== MATCHED) throw new Error(`the routed code answered ${check.status} ${check.headers.get('location')}, not its last rule`);

    const targets = {
      bare: `http://127.0.0.1:${barePort}/r/${routed.slug}`,
      plain: `http://127.0.0.1:${qroutePort}/r/${plain.slug}`,
      routed: `http://127.0.0.1:${qroutePort}/r/${routed.slug}`,
    };
    const names = ['bare', 'plain', 'routed'] as const;
    lines.push(`\nredirect with 20 rules (last matches) beside a plain code: ${options.rounds} rounds × ${options.seconds} s per target`);
    lines.push('conns round  bare req/s | plain req/s  p50/p99 ms  ratio | 20 rules req/s  p50/p99 ms  ratio');
    for (const connections of options.connections) {
      const ratios = { plain: [] as number[], routed: [] as number[] };
      for (let round = 1; round <= options.rounds; round++) {
        // Rotate which goes first, so warm-up and background noise favour none of the three.
        const order = names.map((_, i) => names[(i + round) % names.length]!);
        const results: Partial<Record<(typeof names)[number], LoadResult>> = {};
        for (const name of order) results[name] = await load(targets[name], connections, options.seconds);
        const [b, p, r] = [results.bare!, results.plain!, results.routed!];
        ratios.plain.push(p.requestsPerSecond / b.requestsPerSecond);
        ratios.routed.push(r.requestsPerSecond / b.requestsPerSecond);
        const odd = [p, r].some((x) => x.errors || Object.keys(x.statusCounts).some((s) => s !== '302'));
        lines.push(
          `${String(connections).padStart(5)} ${String(round).padStart(5)}  ${fmt(b.requestsPerSecond, 10)} |` +
            ` ${fmt(p.requestsPerSecond, 11)}  ${`${p.p50}/${p.p99}`.padStart(10)}  ${ratios.plain.at(-1)!.toFixed(3)} |` +
            ` ${fmt(r.requestsPerSecond, 14)}  ${`${r.p50}/${r.p99}`.padStart(10)}  ${ratios.routed.at(-1)!.toFixed(3)}` +
            (odd ? `  (non-302: plain ${JSON.stringify(p.statusCounts)}, routed ${JSON.stringify(r.statusCounts)})` : ''),
        );
      }
      lines.push(`median ratio ÷ bare at ${connections} connections: plain ${median(ratios.plain).toFixed(3)}, 20 rules ${median(ratios.routed).toFixed(3)}`);
    }
  } finally {
    await stop(qroute);
    await stop(bare);
  }
  return lines;
}
