import http from 'node:http';
import type { AddressInfo } from 'node:net';

interface ReceivedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface LoopbackServer {
  /** e.g. http://127.0.0.1:43210 or http://[::1]:43210 */
  origin: string;
  port: number;
  /** Every request that reached the server, body read in full. */
  received: ReceivedRequest[];
  /** Number of client connections that have closed (lets tests see the client hang up). */
  closedConnections(): number;
  close(): Promise<void>;
}

export type Handler = (request: ReceivedRequest, res: http.ServerResponse, server: LoopbackServer) => void;

/** An HTTP server bound to a loopback address only; tests never talk to anything else. */
export async function startLoopbackServer(host: '127.0.0.1' | '::1', handler: Handler): Promise<LoopbackServer> {
  let closed = 0;
  const server = http.createServer();
  const self: LoopbackServer = {
    origin: '',
    port: 0,
    received: [],
    closedConnections: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => socket.on('close', () => closed++));
  server.on('request', (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      self.received.push(request);
      handler(request, res, self);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  self.port = (server.address() as AddressInfo).port;
  self.origin = host === '::1' ? `http://[::1]:${self.port}` : `http://127.0.0.1:${self.port}`;
  return self;
}
