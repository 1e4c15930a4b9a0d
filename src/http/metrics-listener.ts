import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from '../metrics/registry';

export interface MetricsListener {
  /** `http://host:port`, the port the listener really took (METRICS_PORT=0: any free one). */
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics on a listener of their own (METRICS_HOST:METRICS_PORT, loopback by default), away from
 * the public port and its balancer: `GET /metrics` in Prometheus's text format, every other request
 * a 404. Plain node:http: no routes, hooks or limits to go through, so a scrape still answers while
 * the public port is saturated.
 */
export async function startMetricsListener({ host, port }: { host: string; port: number }): Promise<MetricsListener> {
  const text = { 'content-type': 'text/plain; charset=utf-8' };
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, text).end('only GET /metrics is served here\n');
      return;
    }
    const exposition = { 'content-type': metricsRegistry.contentType };
    metricsRegistry.metrics().then(
      (body) => response.writeHead(200, exposition).end(request.method === 'HEAD' ? undefined : body),
      (error: Error) => response.writeHead(500, text).end(`metrics failed: ${error.message}\n`),
    );
  });
  // A scrape is one short request; a client that holds its socket open must not hold shutdown.
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
