import http from 'node:http';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body's bytes as they came (still compressed when Content-Encoding says so). */
  body: Buffer;
  text: string;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  json: any;
}

/**
 * A request exactly as given, over a fresh connection: any method (TRACE, PROPFIND), a body on GET, raw bytes
 * that are not UTF-8, a path that is not valid percent-encoding. fetch normalises or refuses all of these.
 */
export function rawHttp(
  origin: string,
  request: { method: string; path: string; headers?: Record<string, string | number>; body?: string | Buffer },
): Promise<RawResponse> {
  const url = new URL(origin);
  // Framed explicitly: Node's client sends a GET or DELETE body unframed, which the server then reads as a request.
  const headers = request.body === undefined ? request.headers : { 'Content-Length': Buffer.byteLength(request.body), ...request.headers };
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const text = body.toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode!, headers: res.headers, body, text, json });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
