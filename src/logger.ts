import pino, { type Logger } from 'pino';

/**
 * The root logger. Parts take a child (`logger.child({ part: 'api' })`); secrets are redacted wherever they
 * would appear: request headers, and any field named like a key or a secret.
 */
export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      level: options.level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
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
    options.destination,
  );
}
