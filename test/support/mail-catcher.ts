import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  from: string;
  to: string[];
  /** The message as it crossed the wire. */
  raw: string;
  subject: string;
  /** The decoded text/plain and text/html parts, with \n line ends. */
  text: string;
  html: string;
}

export interface MailCatcher {
  /** `smtp://127.0.0.1:<port>` */
  url: string;
  port: number;
  mails: CaughtMail[];
  /** Every AUTH the client made, as the server decoded it. */
  logins: Array<{ username: string; password: string }>;
  close(): Promise<void>;
}

/**
 * A real SMTP server on loopback (the `smtp-server` package) that keeps every message it is given. No STARTTLS, so
 * the client speaks plain SMTP; any login is accepted and none is required.
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const logins: MailCatcher['logins'] = [];
  const server = new SMTPServer({
    authOptional: true,
    // Loopback only, so credentials in the clear are fine here (and let the test see them arrive intact).
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) => {
      logins.push({ username: auth.username ?? '', password: auth.password ?? '' });
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw,
          subject: header(raw, 'subject') ?? '',
          text: part(raw, 'text/plain').replace(/\r\n/g, '\n'),
          html: part(raw, 'text/html').replace(/\r\n/g, '\n'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    mails,
    logins,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An unfolded header's value (RFC 5322 folding undone; encoded words left as they are). */
function header(raw: string, name: string): string | undefined {
  const head = raw.split(/\r?\n\r?\n/, 1)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const line = head.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}

/** The decoded body of the first part of `type` (quoted-printable, base64 or plain), searched through multiparts. */
function part(raw: string, type: string): string {
  const sections = raw.split(/\r?\n--[^\r\n]+\r?\n/);
  for (const section of sections) {
    const contentType = header(section, 'content-type') ?? '';
    if (!contentType.toLowerCase().startsWith(type)) continue;
    const body = section.slice(section.search(/\r?\n\r?\n/)).replace(/^\r?\n\r?\n/, '').replace(/\r?\n--[^\r\n]*--\s*$/, '');
    const encoding = (header(section, 'content-transfer-encoding') ?? '7bit').toLowerCase();
    if (encoding === 'base64') return Buffer.from(body, 'base64').toString('utf8');
    if (encoding === 'quoted-printable') {
      // Soft line breaks go; each =XX is a byte: as %XX (after escaping literal %) decodeURIComponent reads UTF-8.
      return decodeURIComponent(body.replace(/%/g, '%25').replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, '%$1'));
    }
    return body;
  }
  return '';
}
