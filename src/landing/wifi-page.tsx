import type { WifiContent } from '../codes/types/index.js';
import { type Publisher, PageShell } from './page-shell.js';
import { wifiString } from '../codes/types/wifi-string.js';

export function WifiPage({ content: w, publisher }: { content: WifiContent; publisher: Publisher }) {
  return (
    <PageShell title="Join the Wi-Fi" publisher={publisher}>
      <dl>
        <dt>Network</dt>
        <dd><code>{w.ssid}</code></dd>
        <dt>Password</dt>
        <dd>{w.password === undefined ? 'None (open network)' : <code>{w.password}</code>}</dd>
        <dt>Security</dt>
        <dd>{w.security === 'none' ? 'Open' : w.security}</dd>
      </dl>
      <h2>How to join</h2>
      <ol>
        <li>Open your phone's Wi-Fi settings.</li>
        <li>{w.hidden ? 'Choose "Other network" and type the network name above (it is hidden).' : 'Choose the network named above.'}</li>
        {w.password !== undefined && <li>Enter the password above (press and hold it to copy).</li>}
      </ol>
      <p>Or copy this into a Wi-Fi QR app: <code>{wifiString(w)}</code></p>
    </PageShell>
  );
}
