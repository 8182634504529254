// `npm run cluster`: qroute's production topology on this machine, with real processes and no containers. An embedded
// PostgreSQL primary and a streaming replica of it, PgBouncer in transaction mode, three qroute instances behind a
// round-robin balancer, two webhook workers (scripts/cluster/topology.mjs). Data in ./data/cluster/ (CLUSTER_DIR),
// kept across runs; the balancer on 127.0.0.1:3000 (CLUSTER_HOST, CLUSTER_PORT), the instances on the next three
// ports. Ctrl-C or SIGTERM stops the instances and workers, then PgBouncer, the replica and the primary.
// See docs/operating/scaling.md.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';
import { startCluster } from './cluster/topology.mjs';
import { pgbouncerInstalled, PGBOUNCER_BINARY } from './cluster/pgbouncer.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.resolve(root, process.env.CLUSTER_DIR || 'data/cluster');
const host = process.env.CLUSTER_HOST || '127.0.0.1';
const port = Number(process.env.CLUSTER_PORT || 3000);
if (!Number.isInteger(port) || port < 1 || port > 65_532) fail(`CLUSTER_PORT must be a port with three free ones after it, got "${process.env.CLUSTER_PORT}"`);
if (!pgbouncerInstalled()) fail(`PgBouncer is not installed (${PGBOUNCER_BINARY}): apt-get install pgbouncer`);
// The service and the workers run from dist/, as `npm start` runs them; the docs portal too.
if (!buildIfStale(root, ['build', 'docs'])) fail('the build failed (see above)');

const width = 'postgres'.length + 2;
// The balancer asks every instance for /readyz each second: an answered check says nothing (a failed one still shows,
// and the balancer says when an instance leaves or rejoins the rotation). Both LOG_FORMATs' request lines.
const answeredCheck = /GET \/readyz 200 in |"url":"\/readyz"\},"res":\{"statusCode":200/;
const print = (name, line) => {
  if (!answeredCheck.test(line)) process.stdout.write(`${`[${name}]`.padEnd(width + 1)} ${line}\n`);
};
const startup = new AbortController();
let cluster;
let stopping;
const stop = (why, exitCode) => {
  stopping ??= (async () => {
    print('cluster', `${why}: stopping the instances and workers, then PgBouncer, the replica and the primary`);
    // While it starts, the start-up itself stops what it started once it sees the abort.
    startup.abort();
    const running = await starting.catch(() => undefined);
    await running?.stop();
    print('cluster', 'stopped');
    process.exit(exitCode);
  })();
  return stopping;
};
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    if (stopping) print('cluster', 'still stopping (each process gets its shutdown grace, then SIGKILL)');
    else void stop(signal, 0);
  });
}
// The children are detached (a Ctrl-C reaches only us): a crash here must not leave them running without us.
process.on('exit', () => cluster?.killNow());

const starting = startCluster({
  root, dir, host, port, print, signal: startup.signal,
  onUnexpectedExit: (name, how) => void stop(`${name} exited (${how.signal ?? `code ${how.code}`})`, 1),
});
try {
  cluster = await starting;
} catch (error) {
  // What had started is stopped already (startCluster does it before it rejects).
  if (!stopping) {
    print('cluster', `could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
if (cluster && !stopping) {
  const lines = [
    '',
    `qroute runs at ${cluster.siteUrl} (balancer over ${cluster.instances.map((instance) => instance.url).join(', ')})`,
    `  DATABASE_URL (PgBouncer, transaction mode): ${redact(cluster.databaseUrls.pooled)}`,
    `  DATABASE_DIRECT_URL (primary):              ${redact(cluster.databaseUrls.direct)}`,
    `  DATABASE_READ_URL (streaming replica):      ${redact(cluster.databaseUrls.replica)}`,
    `  PgBouncer's console:                        ${redact(cluster.pgbouncerAdminUrl)}`,
    `  data and passwords in ${relative(dir)}/ (primary/postgres.json, webhook-secret-key)`,
    // The CLI finds the running primary through its DATA_DIR, as it finds a server's embedded database.
    'The admin CLI, from the project folder:',
    `  DATA_DIR=${relative(path.join(dir, 'primary'))} WEBHOOK_SECRET_KEY=$(cat ${relative(path.join(dir, 'webhook-secret-key'))}) node dist/src/cli/main.js accounts create --name "Acme"`,
    'Ctrl-C stops everything.',
    '',
  ];
  for (const line of lines) print('cluster', line);
}

function relative(file) {
  const inside = path.relative(process.cwd(), file);
  return inside.startsWith('..') ? file : inside;
}

/** Without the password (it is in primary/postgres.json). */
function redact(url) {
  return url.replace(/^(postgres:\/\/[^:@/]*):[^@/]*@/, '$1:***@');
}

function fail(message) {
  process.stderr.write(`npm run cluster: ${message}\n`);
  process.exit(1);
}
