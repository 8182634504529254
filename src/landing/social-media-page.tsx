import type { SocialMediaContent } from '../codes/types/index.js';
import { Icon, networkIcon } from './icons.js';
import { type Publisher, PageShell } from './page-shell.js';

const NETWORK_NAMES: Record<string, string> = {
  facebook: 'Facebook', instagram: 'Instagram', x: 'X', linkedin: 'LinkedIn', youtube: 'YouTube', tiktok: 'TikTok',
  pinterest: 'Pinterest', snapchat: 'Snapchat', whatsapp: 'WhatsApp', telegram: 'Telegram', threads: 'Threads',
  mastodon: 'Mastodon', bluesky: 'Bluesky', github: 'GitHub', other: 'Website',
};

export function SocialMediaPage({ content, publisher }: { content: SocialMediaContent; publisher: Publisher }) {
  return (
    <PageShell title={content.title ?? `Follow ${publisher.accountName}`} publisher={publisher}>
      <ul class="l">
        {content.links.map((link) => (
          <li>
            <a class="b" href={link.url} rel="nofollow noopener">
              <Icon name={networkIcon(link.network)} />
              {NETWORK_NAMES[link.network] ?? link.network}
            </a>
          </li>
        ))}
      </ul>
    </PageShell>
  );
}
