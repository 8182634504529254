import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { chooseLogFormat, createLogger, type LogFormat } from '../../src/logger.js';

/** A destination that collects what the logger writes, and says it is a terminal or not, as process.stdout does. */
function capture(isTTY: boolean): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString('utf8'));
      done();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join('') });
}

describe('log format', () => {
  it.each<[LogFormat, boolean, 'json' | 'pretty']>([
    ['auto', true, 'pretty'],
    ['auto', false, 'json'],
    ['json', true, 'json'],
    ['pretty', false, 'pretty'],
  ])('LOG_FORMAT=%s with a terminal: %s writes %s', (setting, terminal, want) => {
    expect(chooseLogFormat(setting, terminal)).toBe(want);
  });

  it('writes readable lines to a terminal, secrets still redacted', () => {
    const terminal = capture(true);
    createLogger({ level: 'info', destination: terminal }).info({ port: 3000, password: 'hunter2' }, 'qroute is listening');
    expect(terminal.text()).toContain('\u001b['); // coloured
    const line = terminal.text().replace(/\u001b\[\d+m/g, '');
    expect(line).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: qroute is listening \{"port":3000,"password":"\[redacted\]"\}\n$/);
    expect(() => JSON.parse(line)).toThrow();
  });

  it('writes a request as one line: method, path, status, time and its id', () => {
    const terminal = capture(true);
    createLogger({ level: 'info', format: 'pretty', destination: terminal }).info(
      { part: 'http', req: { id: 'r-1', method: 'GET', url: '/codes' }, res: { statusCode: 200, headers: { 'set-cookie': 'qroute_session=s3cret' } }, responseTime: 12 },
      'request completed');
    expect(terminal.text().replace(/\u001b\[\d+m/g, '')).toMatch(/^\[[\d:.]+\] INFO: GET \/codes 200 in 12 ms \(request r-1\) \{"part":"http"\}\n$/);
  });

  it("never logs a response's cookies (a sign-in's session)", () => {
    const pipe = capture(false);
    createLogger({ level: 'info', destination: pipe }).info({ res: { statusCode: 303, headers: { 'set-cookie': 'qroute_session=s3cret' } } }, 'request completed');
    expect(JSON.parse(pipe.text()).res.headers['set-cookie']).toBe('[redacted]');
  });

  it('writes one JSON object a line anywhere else (a pipe, a file, a collector)', () => {
    const pipe = capture(false);
    createLogger({ level: 'info', destination: pipe }).info({ port: 3000 }, 'qroute is listening');
    expect(JSON.parse(pipe.text())).toMatchObject({ level: 30, port: 3000, msg: 'qroute is listening' });
  });

  it('follows LOG_FORMAT over the terminal', () => {
    const terminal = capture(true);
    createLogger({ level: 'info', format: loadConfig({ LOG_FORMAT: 'json' }).logFormat, destination: terminal }).info('plain');
    expect(JSON.parse(terminal.text())).toMatchObject({ msg: 'plain' });
    const pipe = capture(false);
    createLogger({ level: 'info', format: loadConfig({ LOG_FORMAT: 'Pretty' }).logFormat, destination: pipe }).info('for people');
    expect(pipe.text()).toMatch(/INFO: for people/);
    expect(pipe.text()).not.toContain('\u001b['); // colours only on a terminal
  });

  it('reads LOG_FORMAT as auto by default and refuses anything else', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(() => loadConfig({ LOG_FORMAT: 'text' })).toThrow('LOG_FORMAT must be json, pretty or auto, got "text"');
  });
});
