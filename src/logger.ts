import { createRequire } from 'node:module';
import pino, { type Logger } from 'pino';

/** LOG_FORMAT: `json` (one object a line, for collectors), `pretty` (for people), `auto` (pretty on a terminal). */
export type LogFormat = 'json' | 'pretty' | 'auto';

/** What `auto` means: readable lines for a person at a terminal, JSON for anything that stores or parses the output. */
export function chooseLogFormat(setting: LogFormat, isTerminal: boolean): 'json' | 'pretty' {
  if (setting !== 'auto') return setting;
  return isTerminal ? 'pretty' : 'json';
}

/**
 * The root logger. Parts take a child (`logger.child({ part: 'api' })`); secrets are redacted wherever they
 * would appear: request headers, and any field named like a key or a secret. Writes to `destination` (stdout when
 * none) as JSON, or as pino-pretty's coloured lines when `format` chooses it.
 */
export function createLogger(options: { level: string; format?: LogFormat; destination?: pino.DestinationStream & { isTTY?: boolean } }): Logger {
  const isTerminal = (options.destination ?? process.stdout).isTTY === true;
  const format = chooseLogFormat(options.format ?? 'auto', isTerminal);
  return pino(
    {
      level: options.level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          // pino-http logs the response's headers: a sign-in's session cookie among them.
          'res.headers["set-cookie"]',
          'key',
          'secret',
          'password',
          '*.key',
          '*.secret',
          '*.password',
          'connectionString',
        ],
        censor: '[redacted]',
      },
    },
    format === 'pretty' ? prettyStream(options.destination, isTerminal) : options.destination,
  );
}

/**
 * pino-pretty as a stream in this thread (not a transport's worker thread: a terminal's lines are few, and a line
 * logged just before exit is never lost). Loaded only when used: the admin CLI's start stays short when piped.
 * Redaction happens before it, in pino.
 */
function prettyStream(destination: pino.DestinationStream | undefined, colours: boolean): pino.DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({
    destination: destination ?? 1,
    colorize: colours,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // One line an event; a request reads as "GET /codes 200 in 12 ms", its headers left to LOG_FORMAT=json.
    singleLine: true,
    ignore: 'pid,hostname,req,res,responseTime',
    messageFormat: (log, messageKey) => {
      const message = String(log[messageKey] ?? '');
      const { req, res, responseTime } = log as { req?: { id?: string; method?: string; url?: string }; res?: { statusCode?: number }; responseTime?: number };
      if (!req?.method) return message;
      const request = `${req.method} ${req.url ?? ''} ${res?.statusCode ?? ''}${responseTime === undefined ? '' : ` in ${responseTime} ms`} (request ${req.id ?? '?'})`;
      return message === 'request completed' ? request : `${request}: ${message}`;
    },
  });
}
