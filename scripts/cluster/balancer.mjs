// The load balancer of `npm run cluster`: round robin over the instances that answer /readyz, in node:http.
// Production uses nginx (deploy/nginx.conf); this one exists so the whole topology runs with nothing installed.
import http from 'node:http';

/** Headers that describe one connection, not the request: never passed on (RFC 9110, section 7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade',
  'proxy-authorization', 'proxy-authenticate']);

/**
 * Listens on `host`:`port` and passes each request to the next healthy upstream (`{ name, url }`, an http:// origin).
 * An upstream is healthy while GET /readyz answers 200, asked every `checkEveryMs`; one that refuses a connection is
 * left out until its next good answer. The balancer is the edge: it sets X-Forwarded-For to the address it was
 * connected from (replacing whatever the client sent, which anyone could forge), and X-Forwarded-Proto and -Host.
 * @param {{ host: string, port: number, upstreams: { name: string, url: string }[], checkEveryMs?: number,
 *   log: (line: string) => void }} options
 */
export async function startBalancer({ host, port, upstreams, checkEveryMs = 1_000, log }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const states = upstreams.map((upstream) => ({ ...upstream, healthy: false }));
  let next = 0;

  const setHealth = (state, healthy, why) => {
    if (state.healthy === healthy) return;
    state.healthy = healthy;
    log(`${state.name} ${healthy ? 'is ready' : `is out of the rotation (${why})`}`);
  };
  const check = (state) => new Promise((resolve) => {
    const request = http.get(new URL('/readyz', state.url), { agent, timeout: 2_000 }, (response) => {
      response.resume();
      setHealth(state, response.statusCode === 200, `/readyz answered ${response.statusCode}`);
      resolve();
    });
    request.on('timeout', () => request.destroy(new Error('/readyz did not answer within 2 s')));
    request.on('error', (error) => {
      setHealth(state, false, error.message);
      resolve();
    });
  });
  const checkAll = () => Promise.all(states.map(check));
  const timer = setInterval(() => void checkAll(), checkEveryMs);
  await checkAll();

  const pick = (exclude) => {
    const healthy = states.filter((state) => state.healthy && !exclude.has(state));
    if (healthy.length === 0) return undefined;
    next = (next + 1) % healthy.length;
    return healthy[next];
  };

  const server = http.createServer((req, res) => {
    const headers = {};
    for (const [name, value] of Object.entries(req.headers)) if (!HOP_BY_HOP.has(name)) headers[name] = value;
    headers['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    headers['x-forwarded-proto'] = 'http';
    headers['x-forwarded-host'] = req.headers.host ?? '';
    // A request without a body can go to another instance when the first refuses the connection.
    const retryable = req.method === 'GET' || req.method === 'HEAD';
    const tried = new Set();
    const send = () => {
      const upstream = pick(tried);
      if (!upstream) {
        if (!res.headersSent) res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' }).end('no qroute instance is ready\n');
        else res.destroy();
        return;
      }
      tried.add(upstream);
      const target = new URL(req.url ?? '/', upstream.url);
      const forwarded = http.request(target, { method: req.method, headers, agent }, (answer) => {
        const answerHeaders = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!HOP_BY_HOP.has(name)) answerHeaders[name] = value;
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(res);
      });
      forwarded.on('error', (error) => {
        if (!res.headersSent && 'code' in error && error.code === 'ECONNREFUSED') setHealth(upstream, false, error.message);
        if (!res.headersSent && retryable && 'code' in error && error.code === 'ECONNREFUSED') return send();
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`${upstream.name}: ${error.message}\n`);
        else res.destroy();
      });
      res.on('close', () => {
        if (!res.writableFinished) forwarded.destroy();
      });
      if (retryable) {
        req.resume();
        forwarded.end();
      }
      else req.pipe(forwarded);
    };
    send();
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: server.address().port,
    ready: () => states.some((state) => state.healthy),
    /** Stops accepting at once; requests in flight get `graceMs` to finish (a live stream never would by itself). */
    close: async (graceMs = 10_000) => {
      clearInterval(timer);
      const closed = new Promise((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const force = setTimeout(() => server.closeAllConnections(), graceMs);
      await closed;
      clearTimeout(force);
      agent.destroy();
    },
  };
}
