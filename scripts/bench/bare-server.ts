/**
 * The physical limit on this machine: node:http answering every request with a 302 and doing nothing else.
 * Usage: tsx scripts/bench/bare-server.ts <port>
 */
import http from 'node:http';

const port = Number(process.argv[2]);
http
  .createServer((_req, res) => {
    res.writeHead(302, { Location: 'https://example.com/destination', 'Cache-Control': 'private, no-store', 'Content-Length': 0 });
    res.end();
  })
  .listen(port, '127.0.0.1', () => process.stdout.write('ready\n'));
