// PgBouncer in transaction mode in front of one PostgreSQL, as a child process of ours. Shared by `npm run cluster`
// (scripts/cluster.mjs) and the tests' harness (test/support/replicated-cluster.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';

/** Debian's package (`apt-get install pgbouncer`; 1.18 on bookworm). */
export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

export function pgbouncerInstalled() {
  return existsSync(PGBOUNCER_BINARY);
}

/**
 * Starts PgBouncer on 127.0.0.1:`port` with its files in `dir` (created, owned by `runAs`: PgBouncer refuses to
 * run as root, so as root it runs as PostgreSQL's user). Every database name is passed through to the server.
 * `users` log in with their PostgreSQL password (SCRAM, which PgBouncer then also uses towards the server);
 * `adminUser` may also open the admin console (the `pgbouncer` database: SHOW POOLS, SHOW STATS).
 * `log(line)` gets PgBouncer's own log lines.
 * @param {{ dir: string, port: number, server: { host: string, port: number }, users: { name: string, password: string }[],
 *   adminUser: string, runAs: { uid?: number, gid?: number }, poolSize?: number, maxClientConn?: number,
 *   log?: (line: string) => void }} options
 */
export async function startPgBouncer({ dir, port, server, users, adminUser, runAs, poolSize = 4, maxClientConn = 1000, log = () => undefined }) {
  if (!pgbouncerInstalled()) throw new Error(`PgBouncer is not installed (${PGBOUNCER_BINARY}): apt-get install pgbouncer`);
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const userlist = path.join(dir, 'userlist.txt');
  const ini = path.join(dir, 'pgbouncer.ini');
  // The auth file's format: "name" "password" per line, with a " inside doubled.
  await writeOwned(userlist, users.map(({ name, password }) => `${quoted(name)} ${quoted(password)}\n`).join(''), runAs);
  await writeOwned(ini, [
    '[databases]',
    `* = host=${server.host} port=${server.port}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'auth_type = scram-sha-256',
    `auth_file = ${userlist}`,
    `admin_users = ${adminUser}`,
    // A server connection serves one transaction at a time, then goes back to the pool: session state (SET,
    // LISTEN, session advisory locks, named prepared statements) does not survive the transaction.
    'pool_mode = transaction',
    `default_pool_size = ${poolSize}`,
    `max_client_conn = ${maxClientConn}`,
    // Not `options`: PgBouncer 1.18 cannot pass it on, and a client that sends it (qroute without
    // DATABASE_DIRECT_URL, which sends its timeouts so) is better refused than silently left without its settings.
    'ignore_startup_parameters = extra_float_digits',
    'logfile =',
    'pidfile =',
    'log_connections = 0',
    'log_disconnections = 0',
    '',
  ].join('\n'), runAs);
  await own(dir, runAs);

  const child = spawn(PGBOUNCER_BINARY, [ini], { uid: runAs.uid, gid: runAs.gid, cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk) => {
    const text = chunk.toString();
    output = (output + text).slice(-4_000);
    for (const line of text.split('\n')) if (line.trim()) log(line);
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.once('error', (error) => {
    output += `\n${error.message}`;
  });

  const adminUrl = (password) => `postgres://${encodeURIComponent(adminUser)}:${encodeURIComponent(password)}@127.0.0.1:${port}/pgbouncer`;
  const adminPassword = users.find((user) => user.name === adminUser)?.password;
  if (adminPassword === undefined) throw new Error(`the admin user ${adminUser} must be one of the users`);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    // SIGTERM is an immediate shutdown in 1.18 (SIGINT would wait for every client to leave).
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await untilListening(port, exited, () => output);
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    pid: child.pid,
    port,
    exited,
    /** A connection string through PgBouncer. */
    url: (user, password, database = 'postgres') => `postgres://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`,
    adminUrl: adminUrl(adminPassword),
    /** `SHOW <what>` on the admin console (simple query protocol, which is all it speaks): its rows. */
    show: async (what) => {
      if (!/^[A-Za-z_]+$/.test(what)) throw new Error(`not a SHOW command: ${what}`);
      const client = new pg.Client({ connectionString: adminUrl(adminPassword) });
      client.on('error', () => undefined);
      await client.connect();
      try {
        return (await client.query(`SHOW ${what}`)).rows;
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    stop,
  };
}

/** Waits until the port accepts connections, failing at once with PgBouncer's output when it exits first. */
async function untilListening(port, exited, output) {
  let gone;
  void exited.then((how) => (gone = how));
  for (const started = Date.now(); Date.now() - started < 10_000; await new Promise((resolve) => setTimeout(resolve, 25))) {
    if (gone) throw new Error(`PgBouncer exited (${gone.signal ?? `code ${gone.code}`}) on start: ${output().trim()}`);
    if (await accepts(port)) return;
  }
  throw new Error(`PgBouncer did not listen on 127.0.0.1:${port} within 10 s: ${output().trim()}`);
}

function accepts(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function quoted(value) {
  return `"${String(value).replace(/"/g, '""')}"`;
}

async function writeOwned(file, text, runAs) {
  await fs.writeFile(file, text, { mode: 0o600 });
  await own(file, runAs);
}

async function own(file, runAs) {
  if (runAs.uid !== undefined) await fs.chown(file, runAs.uid, runAs.gid ?? runAs.uid);
}
