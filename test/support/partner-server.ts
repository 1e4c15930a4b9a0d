import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake partner received. */
export interface PartnerRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface PartnerReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A print partner's API on 127.0.0.1, answering as the test's handler says (which follows the
 * partner's published reference). Requests are recorded; `failNext` makes the next answers errors
 * (400, 401, 429, 503 ...) before the handler is asked again.
 */
export function startPartnerServer(handler: (request: PartnerRequest) => PartnerReply) {
  const received: PartnerRequest[] = [];
  const failures: PartnerReply[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {
        json = undefined;
      }
      const request: PartnerRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        json,
      };
      received.push(request);
      const reply = failures.shift() ?? handler(request);
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body === undefined ? '' : JSON.stringify(reply.body));
    });
  });
  return {
    received,
    failNext(...replies: PartnerReply[]) {
      failures.push(...replies);
    },
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
