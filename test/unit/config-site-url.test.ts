import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

describe("the admin CLI's SITE_URL", () => {
  it("takes SITE_URL from its own environment over the running server's", () => {
    expect(loadConfig({ SITE_URL: 'https://here.example.com' }, { serverSiteUrl: 'https://qr.example.com' }))
      .toMatchObject({ siteUrl: 'https://here.example.com', siteUrlSource: 'SITE_URL' });
  });

  it("takes the running server's when its environment has none, with the mail sender's host to match", () => {
    expect(loadConfig({ PORT: '8080' }, { serverSiteUrl: 'https://qr.example.com/codes' })).toMatchObject({
      siteUrl: 'https://qr.example.com/codes',
      siteUrlSource: 'server',
      dashboard: { mailFrom: 'qroute <no-reply@qr.example.com>' },
    });
  });

  it('falls back to localhost on PORT when no server has recorded one, and says it is the default', () => {
    expect(loadConfig({ PORT: '8080' }, {})).toMatchObject({ siteUrl: 'http://localhost:8080', siteUrlSource: 'default' });
  });
});
