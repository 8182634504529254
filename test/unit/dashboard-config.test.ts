import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('dashboard config', () => {
  it('defaults: no mail, sign-up closed on the free plan, sessions idle 12 h and at most 30 days', () => {
    expect(loadConfig({}).dashboard).toEqual({
      smtpUrl: undefined,
      mailFrom: 'qroute <no-reply@localhost>',
      signup: 'closed',
      signupPlan: 'free',
      sessionIdleMs: 12 * 3_600_000,
      sessionMaxMs: 30 * 86_400_000,
    });
  });

  it('reads every variable when set', () => {
    expect(
      loadConfig({
        SITE_URL: 'https://qr.example.com',
        SMTP_URL: ' smtps://mailer:secret@mail.example.com:465 ',
        MAIL_FROM: 'Acme QR <qr@acme.example>',
        SIGNUP: 'OPEN',
        SIGNUP_PLAN: 'starter',
        SESSION_IDLE_MINUTES: '30',
        SESSION_MAX_DAYS: '7',
      }).dashboard,
    ).toEqual({
      smtpUrl: 'smtps://mailer:secret@mail.example.com:465',
      mailFrom: 'Acme QR <qr@acme.example>',
      signup: 'open',
      signupPlan: 'starter',
      sessionIdleMs: 30 * 60_000,
      sessionMaxMs: 7 * 86_400_000,
    });
  });

  it("takes the default sender's domain from SITE_URL, without port or path", () => {
    expect(loadConfig({ SITE_URL: 'https://qr.example.com:8443/base' }).dashboard.mailFrom).toBe('qroute <no-reply@qr.example.com>');
  });

  it('accepts smtp:// too, and leaves mail off for a blank SMTP_URL', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).dashboard.smtpUrl).toBe('smtp://127.0.0.1:2525');
    expect(loadConfig({ SMTP_URL: '  ' }).dashboard.smtpUrl).toBeUndefined();
  });

  it('refuses an SMTP_URL that is not smtp(s) without echoing it (it holds a password)', () => {
    for (const bad of ['https://user:hunter2@mail.example.com', 'mail.example.com:587', 'smtp://']) {
      let error: unknown;
      try {
        loadConfig({ SMTP_URL: bad });
      } catch (caught) {
        error = caught;
      }
      expect(error, bad).toBeInstanceOf(ConfigError);
      expect((error as Error).message).not.toContain('hunter2');
    }
  });

  it.each([
    [{ SIGNUP: 'yes' }, /SIGNUP must be open or closed/],
    [{ SIGNUP_PLAN: 'enterprise' }, /SIGNUP_PLAN must be one of free, starter, pro, business/],
    [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES/],
    [{ SESSION_MAX_DAYS: '1.5' }, /SESSION_MAX_DAYS/],
    [{ SESSION_MAX_DAYS: '400' }, /SESSION_MAX_DAYS/],
  ])('refuses %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
