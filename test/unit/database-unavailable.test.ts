import net from 'node:net';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isDatabaseUnavailable } from '../../src/db/unavailable.js';
import { freePort } from '../../src/net.js';

/** A PostgreSQL-shaped error as pg builds it from the server's ErrorResponse. */
function serverError(code: string, message = 'from the server'): Error {
  const error = new pg.DatabaseError(message, 0, 'error') as Error & { code: string };
  error.code = code;
  return error;
}

/** A TCP server that accepts connections and never answers: a hung database host. */
const held = new Set<net.Socket>();
const silent = net.createServer((socket) => void held.add(socket));
afterAll(async () => {
  for (const socket of held) socket.destroy();
  await new Promise<void>((resolve) => silent.close(() => resolve()));
});

describe('isDatabaseUnavailable', () => {
  it('recognises a refused connection, as pg reports it', async () => {
    const port = await freePort();
    const client = new pg.Client({ host: '127.0.0.1', port, user: 'x', database: 'x' });
    const error = await client.connect().then(() => undefined, (e: unknown) => e);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it("recognises pg-pool's connect timeout against a server that never answers", async () => {
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const pool = new pg.Pool({ host: '127.0.0.1', port: (silent.address() as net.AddressInfo).port, connectionTimeoutMillis: 200 });
    pool.on('error', () => undefined);
    const error = await pool.query('select 1').then(() => undefined, (e: unknown) => e);
    await pool.end().catch(() => undefined);
    expect(String(error)).toMatch(/timeout|terminated/i);
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['57P01 admin_shutdown (pg_ctl stop)', '57P01'],
    ['57P02 crash_shutdown', '57P02'],
    ['57P03 cannot_connect_now (starting up)', '57P03'],
    ['53000 insufficient_resources', '53000'],
    ['53100 disk_full', '53100'],
    ['53200 out_of_memory', '53200'],
    ['53300 too_many_connections', '53300'],
    ['53400 configuration_limit_exceeded', '53400'],
    ['57P05 idle_session_timeout', '57P05'],
    ['58030 io_error', '58030'],
    ['57014 query_canceled (statement_timeout)', '57014'],
    ['08006 connection_failure', '08006'],
    ['08P01 protocol_violation', '08P01'],
  ])('recognises SQLSTATE %s', (_label, code) => {
    expect(isDatabaseUnavailable(serverError(code))).toBe(true);
  });

  it.each([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
  ])('recognises "%s"', (message) => {
    expect(isDatabaseUnavailable(new Error(message))).toBe(true);
  });

  it.each(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNREFUSED'])('recognises socket error %s', (code) => {
    expect(isDatabaseUnavailable(Object.assign(new Error(`connect ${code}`), { code }))).toBe(true);
  });

  it('looks through wrappers (error.cause) and AggregateError', () => {
    const inner = serverError('57P01');
    expect(isDatabaseUnavailable(new Error('query failed', { cause: new Error('wrapped', { cause: inner }) }))).toBe(true);
    const refused = Object.assign(new Error('connect ECONNREFUSED ::1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new AggregateError([refused], 'all addresses failed'))).toBe(true);
  });

  it.each([
    ['a unique violation', serverError('23505')],
    ['an invalid text representation', serverError('22P02')],
    ['a syntax error', serverError('42601')],
    ['a bug', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a string', 'Connection terminated'],
    ['null', null],
  ])('does not take %s for an outage', (_label, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('stops on a cyclic cause', () => {
    const a = new Error('a') as Error & { cause?: unknown };
    a.cause = a;
    expect(isDatabaseUnavailable(a)).toBe(false);
  });
});
