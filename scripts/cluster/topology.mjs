// The production topology of issue 29 on one machine, with real processes: an embedded PostgreSQL primary, a streaming
// replica of it, PgBouncer in transaction mode, three qroute instances behind our balancer, and two standalone
// webhook workers. `npm run cluster` (scripts/cluster.mjs) runs it in a terminal; a bench can start it the same way.
// It runs the built service (dist/): the caller builds it first (scripts/build-if-stale.mjs).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { startBalancer } from './balancer.mjs';
import { startChild } from './children.mjs';
import { startPgBouncer } from './pgbouncer.mjs';
import { makeStandby, standbyState, waitForStreaming } from './standby.mjs';

const SLOT = 'replica';
export const INSTANCES = 3;
export const WORKERS = 2;

/**
 * Starts everything, in order, with its files in `dir` (reused across runs: the databases, PgBouncer's port and the
 * webhook secret key stay). `print(name, line)` gets every process's output. If any step fails, a child exits while
 * it starts, or `signal` aborts it, what was started is stopped again before the returned promise rejects. Once it
 * has started, `onUnexpectedExit(name, how)` is called when a child dies on its own.
 * @param {{ root: string, dir: string, host: string, port: number, print: (name: string, line: string) => void,
 *   onUnexpectedExit?: (name: string, how: { code: number | null, signal: string | null }) => void,
 *   signal?: AbortSignal, env?: NodeJS.ProcessEnv }} options
 */
export async function startCluster({ root, dir, host, port, print, onUnexpectedExit = () => undefined, signal, env = process.env }) {
  const dist = (file) => import(pathToFileURL(path.join(root, 'dist', 'src', file)).href);
  const [{ startEmbeddedPostgres }, { placeEmbeddedPostgres }, { readInfo, writeInfo }] = await Promise.all([
    dist('db/embedded-postgres.js'), dist('db/embedded-postgres-location.js'), dist('db/embedded-postgres-settings.js'),
  ]);
  const logger = linesLogger((line) => print('postgres', line));
  // Undone in reverse: the balancer (no new requests), the instances and workers, then PgBouncer, the replica, the primary.
  const undo = [];
  let stopping = false;
  let started = false;
  let exitedWhileStarting;
  // Between steps: a Ctrl-C or a child that died while the others start ends the start-up.
  const proceed = () => {
    if (signal?.aborted) throw new Error('stopped while starting');
    if (exitedWhileStarting) throw new Error(`${exitedWhileStarting} exited while the cluster started`);
  };
  const stop = async () => {
    stopping = true;
    for (const step of undo.splice(0).reverse()) {
      await step().catch((error) => print('cluster', `while stopping: ${error instanceof Error ? error.message : String(error)}`));
    }
  };

  try {
    // Passable (not readable: its files are 0600) by PostgreSQL's user, which runs the databases in its folders when we are root.
    await fs.mkdir(dir, { recursive: true });
    await fs.chmod(dir, 0o711);
    const settingsFile = path.join(dir, 'cluster.json');
    const settings = JSON.parse(await fs.readFile(settingsFile, 'utf8').catch(() => '{}'));

    const primaryDir = path.join(dir, 'primary');
    const primary = await startEmbeddedPostgres(primaryDir, logger);
    undo.push(() => primary.stop());
    proceed();
    const info = await readInfoOrThrow(readInfo, path.join(primaryDir, 'postgres.json'));
    const adminUrl = primary.adminConnectionString();

    const replicaDir = path.join(dir, 'replica');
    const { runAs, pgData: replicaPgData } = await placeEmbeddedPostgres(replicaDir);
    const state = await standbyState(replicaPgData);
    if (state === 'incomplete') {
      throw new Error(`${replicaPgData} holds a replica whose making did not finish. Delete ${replicaDir} and start again: ` +
        'a new replica is made from the primary.');
    }
    if (state === 'none') {
      print('cluster', `making the replica in ${replicaDir} from a base backup of the primary`);
      // The primary's roles and passwords (the copy has them), a port of its own; written first, so a complete
      // replica always has it.
      await writeInfo(path.join(replicaDir, 'postgres.json'), { ...info, port: 0 });
      try {
        const { bytes } = await makeStandby({ primaryAdminUrl: adminUrl, standbyPgData: replicaPgData, runAs, slot: SLOT });
        print('cluster', `copied ${(bytes / 1024 / 1024).toFixed(1)} MB`);
      } catch (error) {
        // Half a copy could never start: the next run makes it again. (Emptied, not removed: it may be a link's target.)
        for (const entry of await fs.readdir(replicaPgData).catch(() => [])) await fs.rm(path.join(replicaPgData, entry), { recursive: true, force: true });
        throw error;
      }
    }
    const replica = await startEmbeddedPostgres(replicaDir, logger, { create: false });
    undo.push(() => replica.stop());
    proceed();
    await sameSystem(adminUrl, replica.adminConnectionString(), replicaDir);
    await waitForStreaming(adminUrl, SLOT);

    const pgbouncerPort = settings.pgbouncerPort && (await isPortFree(settings.pgbouncerPort)) ? settings.pgbouncerPort : await freePort();
    await fs.writeFile(settingsFile, JSON.stringify({ ...settings, pgbouncerPort }, null, 2));
    const pgbouncer = await startPgBouncer({
      dir: path.join(dir, 'pgbouncer'),
      port: pgbouncerPort,
      server: { host: '127.0.0.1', port: primary.port },
      users: [{ name: info.user, password: info.password }, { name: info.adminUser, password: info.adminPassword }],
      adminUser: info.adminUser,
      runAs,
      // Three instances and two workers share these: the point of a transaction-mode pool.
      poolSize: 10,
      log: (line) => print('pgbouncer', line),
    });
    undo.push(() => pgbouncer.stop());
    proceed();
    watch('pgbouncer', pgbouncer.exited);

    const webhookSecretKey = await secretKey(path.join(dir, 'webhook-secret-key'));
    const siteUrl = `http://${host === '0.0.0.0' || host === '127.0.0.1' ? 'localhost' : host}:${port}`;
    const urls = {
      pooled: pgbouncer.url(info.user, info.password),
      direct: primary.connectionString(),
      replica: replica.connectionString(),
    };
    const serviceEnv = (name) => ({
      ...env,
      DATA_DIR: path.join(dir, name),
      DATABASE_URL: urls.pooled,
      DATABASE_DIRECT_URL: urls.direct,
      DATABASE_READ_URL: urls.replica,
      WEBHOOK_SECRET_KEY: webhookSecretKey,
      SITE_URL: siteUrl,
      TRUST_PROXY: 'loopback',
      LOG_FORMAT: env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json'),
    });
    const instances = [];
    const children = [];
    undo.push(() => Promise.all(children.map((child) => child.stop())));
    const startInstance = (index) => {
      const name = `qroute-${index}`;
      const child = startChild({
        name, command: process.execPath, args: [path.join(root, 'dist', 'src', 'main.js')], cwd: root, print,
        env: { ...serviceEnv(name), PORT: String(port + index), WEBHOOK_WORKER: 'false' },
      });
      instances.push({ name, url: `http://127.0.0.1:${port + index}` });
      children.push(child);
      watch(name, child.exited);
    };
    const untilReady = async (which) => {
      for (const since = Date.now(); !(await allReady(which)); await sleep(200)) {
        proceed();
        if (Date.now() - since > 120_000) throw new Error(`${which.map((each) => each.name).join(', ')} not ready within two minutes`);
      }
    };
    // The first instance alone: it brings the schema (and the role's settings) up to date through the direct
    // connection; the others then start on a database with nothing left to do.
    startInstance(1);
    await untilReady(instances);
    for (let index = 2; index <= INSTANCES; index++) startInstance(index);
    for (let index = 1; index <= WORKERS; index++) {
      const name = `worker-${index}`;
      const child = startChild({
        name, command: process.execPath, args: [path.join(root, 'dist', 'src', 'worker.js')], cwd: root, print, env: serviceEnv(name),
      });
      children.push(child);
      watch(name, child.exited);
    }

    const balancer = await startBalancer({ host, port, upstreams: instances, log: (line) => print('balancer', line) });
    undo.push(() => balancer.close());
    await untilReady(instances);

    started = true;
    return {
      siteUrl,
      instances,
      pgbouncerAdminUrl: pgbouncer.adminUrl,
      databaseUrls: urls,
      adminUrl,
      replicaAdminUrl: replica.adminConnectionString(),
      pgbouncerShow: (what) => pgbouncer.show(what),
      /** SIGTERM to every child at once, for a parent that is exiting right now. */
      killNow: () => {
        for (const child of children) child.killNow();
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }

  function watch(name, exited) {
    void exited.then((how) => {
      if (stopping) return;
      if (started) onUnexpectedExit(name, how);
      else exitedWhileStarting ??= `${name} (${how.signal ?? `code ${how.code}`})`;
    });
  }
}

/** The pino calls the embedded PostgreSQL code makes, as plain lines. */
function linesLogger(write) {
  const line = (first, message) => write(typeof first === 'string' ? first : (message ?? JSON.stringify(first)));
  const logger = { info: line, warn: line, error: line, debug: () => undefined, trace: () => undefined, fatal: line, child: () => logger };
  return logger;
}

async function readInfoOrThrow(readInfo, file) {
  const read = await readInfo(file);
  if (!('info' in read)) throw new Error(`${file} is ${read.problem}`);
  if (read.info.adminUser === undefined) throw new Error(`${file} has no admin role; start the primary once with npm start to upgrade it`);
  return read.info;
}

/** A replica left from an earlier primary (its folder deleted to start afresh) can never stream from this one. */
async function sameSystem(primaryAdminUrl, replicaAdminUrl, replicaDir) {
  const identifier = async (url) => {
    const client = new pg.Client({ connectionString: url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return (await client.query('select system_identifier::text as id from pg_control_system()')).rows[0].id;
    } finally {
      await client.end().catch(() => undefined);
    }
  };
  const [primary, replica] = await Promise.all([identifier(primaryAdminUrl), identifier(replicaAdminUrl)]);
  if (primary !== replica) {
    throw new Error(`the replica in ${replicaDir} was made from another primary (system ${replica}, the primary is ${primary}). ` +
      `Delete ${replicaDir} and start again: a new replica is made from the primary.`);
  }
}

/** WEBHOOK_SECRET_KEY shared by every instance and worker: made once, kept in the cluster's folder. */
async function secretKey(file) {
  const existing = (await fs.readFile(file, 'utf8').catch(() => '')).trim();
  if (existing) return existing;
  const key = randomBytes(32).toString('base64');
  await fs.writeFile(file, `${key}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}

async function allReady(instances) {
  const answers = await Promise.all(instances.map((instance) =>
    fetch(new URL('/readyz', instance.url), { signal: AbortSignal.timeout(2_000) }).then((response) => response.ok, () => false)));
  return answers.every(Boolean);
}

function isPortFree(port) {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.on('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port below the kernel's ephemeral range, where no outgoing connection can take it before the
 * server binds it (the reasoning is src/net.ts's freePort; this script runs before anything is compiled).
 */
async function freePort() {
  const range = await fs.readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const below = Number(range.trim().split(/\s+/)[0]) || 32_768;
  for (let tries = 0; tries < 20 && below > 10_000; tries++) {
    const port = 10_000 + Math.floor(Math.random() * (below - 10_000));
    if (await isPortFree(port)) return port;
  }
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
