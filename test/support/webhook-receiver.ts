import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  /** The raw body, exactly as signed. */
  raw: string;
  body: any;
  receivedAt: number;
}

export interface WebhookReceiver {
  url(path?: string): string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/** A status, or a status sent only after `delayMs` (a slow receiver, to be caught mid-delivery). */
export type ReceiverAnswer = number | { status: number; delayMs: number };

/**
 * A shop's webhook endpoint on 127.0.0.1: records every request, and answers with the status
 * `answer` gives for it (1-based count of requests to that path); 200 by default. `port`: listen
 * where a receiver that was closed listened (the same receiver back after an outage).
 */
export async function startWebhookReceiver(
  answer: (path: string, nth: number) => ReceiverAnswer = () => 200,
  options: { port?: number } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const counts = new Map<string, number>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const raw = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
      );
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      received.push({ path, headers, raw, body, receivedAt: Date.now() });
      const nth = (counts.get(path) ?? 0) + 1;
      counts.set(path, nth);
      const given = answer(path, nth);
      const { status, delayMs } = typeof given === 'number' ? { status: given, delayMs: 0 } : given;
      const send = () => {
        if (!response.destroyed) response.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
      };
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
