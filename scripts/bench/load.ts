/**
 * The load generator, in its own process so it does not share an event loop with either server.
 * Usage: tsx scripts/bench/load.ts <url>[,<url>…] <connections> <seconds> [requests per second, all connections
 * together]; prints one JSON line with the results. Several URLs (paths on one server) are requested in random
 * order, each request with a random one of the user agents, a new public address forwarded by a proxy on loopback
 * and a language.
 */
import autocannon from 'autocannon';

// A realistic mix of phones scanning a poster (the hot path is mostly mobile browsers and camera apps).
const USER_AGENTS = [
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.6 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; SM-A536B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
];

/**
 * Who scans. `local` (the default, BENCH_SCANNERS): a poster in one place, as most are; every scan from a new
 * address in one German provider's block (85.214.0.0/16) asking for German or English. `world`: every scan from a
 * new address anywhere, in one of six languages, so scans of the same second share almost nothing and are stored
 * one row each: the most a scan can cost.
 */
const SCANNERS = process.env.BENCH_SCANNERS === 'world' ? 'world' : 'local';

const WORLD_LANGUAGES = ['en-US,en;q=0.9', 'de-DE,de;q=0.9,en;q=0.8', 'fr-FR,fr;q=0.9', 'es-ES,es;q=0.9', 'ja-JP,ja;q=0.9', 'pt-BR,pt;q=0.9'];
const LOCAL_LANGUAGES = ['de-DE,de;q=0.9,en;q=0.8', 'de-DE,de;q=0.9,en;q=0.8', 'de-DE,de;q=0.9,en;q=0.8', 'en-GB,en;q=0.9'];

/** First octets of public IPv4 blocks on several continents (none private, none reserved). */
const PUBLIC_FIRST_OCTETS = [2, 5, 8, 23, 31, 41, 46, 62, 77, 80, 85, 91, 102, 103, 110, 126, 133, 141, 151, 177, 185, 186, 190, 196, 200, 201, 203, 212, 213, 217];

const octet = () => (Math.random() * 256) | 0;

/**
 * Each request comes from a new address through the trusted proxy on loopback (the bench starts qroute with
 * TRUST_PROXY=loopback): every scan is looked up in the IP database and is a new visitor of the day. The bare
 * server ignores the headers.
 */
function scannerHeaders(): Record<string, string> {
  const world = SCANNERS === 'world';
  const address = world ? `${pick(PUBLIC_FIRST_OCTETS)}.${octet()}.${octet()}.${1 + (octet() % 254)}` : `85.214.${octet()}.${1 + (octet() % 254)}`;
  return { 'user-agent': pick(USER_AGENTS), 'x-forwarded-for': address, 'accept-language': pick(world ? WORLD_LANGUAGES : LOCAL_LANGUAGES) };
}

const [urls, connections, seconds, rate] = [process.argv[2]!.split(','), Number(process.argv[3]), Number(process.argv[4]), Number(process.argv[5] ?? 0)];
const paths = urls.map((url) => new URL(url).pathname);
const pick = <T>(values: readonly T[]): T => values[Math.floor(Math.random() * values.length)]!;
const result = await autocannon({
  url: urls[0]!,
  connections,
  duration: seconds,
  ...(rate > 0 && { overallRate: rate }),
  requests: [{ method: 'GET', setupRequest: (request) => ({ ...request, path: pick(paths), headers: scannerHeaders() }) }],
});
const statusCounts: Record<string, number> = {};
for (const [status, stats] of Object.entries(result.statusCodeStats ?? {})) statusCounts[status] = (stats as { count: number }).count;
process.stdout.write(
  `${JSON.stringify({
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    total: result.requests.total,
    errors: result.errors + result.timeouts,
    statusCounts,
  })}\n`,
);
