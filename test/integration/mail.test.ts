import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createMailer, MailError, type Mailer } from '../../src/people/mailer.js';
import { freePort } from '../../src/net.js';
import { startMailCatcher, type MailCatcher } from '../support/mail-catcher.js';

/** A link like the real ones: 43 base64url characters, long enough that a careless encoder would wrap it. */
const INVITATION_URL = 'https://qr.example.com/invitations/Xy_0-9abcdefghijklmnopqrstuvwxyzABCDEFGHIJK';
const RESET_URL = 'https://qr.example.com/password-reset/Zz_0-9abcdefghijklmnopqrstuvwxyzABCDEFGHIJK';

function mailerFor(env: Record<string, string>, options?: { timeoutMs?: number }): Mailer {
  const mailer = createMailer(loadConfig({ SITE_URL: 'https://qr.example.com', ...env }), options);
  if (!mailer) throw new Error('expected a mailer');
  return mailer;
}

describe('mail over SMTP', () => {
  let catcher: MailCatcher;
  beforeAll(async () => {
    catcher = await startMailCatcher();
  });
  afterAll(async () => {
    await catcher?.close();
  });
  beforeEach(() => {
    catcher.mails.length = 0;
    catcher.logins.length = 0;
  });

  it('is off without SMTP_URL', () => {
    expect(createMailer(loadConfig({}))).toBeUndefined();
  });

  it('delivers an invitation whose link arrives intact, in text and HTML, with everything in the HTML escaped', async () => {
    const mailer = mailerFor({ SMTP_URL: catcher.url });
    await mailer.sendInvitation({ to: 'new.person@example.com', url: INVITATION_URL, accountName: 'Tom & Jerry <b>Ltd</b>', invitedBy: 'ada@example.com' });
    expect(catcher.mails).toHaveLength(1);
    const mail = catcher.mails[0]!;
    expect(mail.to).toEqual(['new.person@example.com']);
    expect(mail.from).toBe('no-reply@qr.example.com');
    expect(mail.raw).toMatch(/^From: qroute <no-reply@qr\.example\.com>\r?$/m);
    expect(mail.text).toContain(`\n${INVITATION_URL}\n`);
    expect(mail.text).toContain('Account name, as its owner typed it: "Tom & Jerry <b>Ltd</b>"\nInvited by: ada@example.com');
    expect(mail.html).toContain(`<a href="${INVITATION_URL}">Accept the invitation</a>`);
    expect(mail.html).toContain('Tom &#38; Jerry &#60;b&#62;Ltd&#60;/b&#62;');
    expect(mail.html).not.toContain('<b>');
  });

  it('delivers a password reset link, From MAIL_FROM, logging in with the credentials in SMTP_URL', async () => {
    const url = new URL(catcher.url);
    url.username = 'mailer';
    url.password = 'p@ss:w/rd';
    const mailer = mailerFor({ SMTP_URL: url.toString(), MAIL_FROM: 'Acme QR <qr@acme.example>' });
    await mailer.sendPasswordReset({ to: 'ada@example.com', url: RESET_URL });
    const mail = catcher.mails[0]!;
    expect(mail).toMatchObject({ from: 'qr@acme.example', to: ['ada@example.com'], subject: 'Reset your qroute password' });
    expect(mail.text).toContain(`\n${RESET_URL}\n`);
    expect(mail.html).toContain(`href="${RESET_URL}"`);
    expect(catcher.logins).toEqual([{ username: 'mailer', password: 'p@ss:w/rd' }]);
  });

  it('fails with MailError at once when nothing listens on the SMTP port', async () => {
    const mailer = mailerFor({ SMTP_URL: `smtp://127.0.0.1:${await freePort()}` });
    const started = Date.now();
    await expect(mailer.sendInvitation({ to: 'a@example.com', url: INVITATION_URL, accountName: 'Acme' })).rejects.toThrow(MailError);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('gives up on a server that accepts the connection and never greets, after the timeout', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as net.AddressInfo;
      const mailer = mailerFor({ SMTP_URL: `smtp://127.0.0.1:${port}` }, { timeoutMs: 300 });
      const started = Date.now();
      await expect(mailer.sendPasswordReset({ to: 'a@example.com', url: RESET_URL })).rejects.toThrow(MailError);
      const took = Date.now() - started;
      expect(took).toBeGreaterThanOrEqual(250);
      expect(took).toBeLessThan(5_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
