import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance } from 'fastify';
import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from '../metrics/registry';
import { UnauthenticatedError } from '../domain/errors';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Keeps a caller's X-Request-Id when it is safe to log, otherwise makes one. */
export function requestIdOf(request: IncomingMessage): string {
  const header = request.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Fastify's request logging without its "incoming request" line: one line per request, `request
 * completed` (or `request errored`), with the request, status and time. With the ORM off the hot
 * reads, log writes are a visible share of the process's time, and the second line adds nothing
 * (docs/performance.md).
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(...[error, request, reply]: Parameters<LogController['requestCompleted']>): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status_code'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});
const requests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status_code'],
  registers: [metricsRegistry],
});

/**
 * Echoes the request id, and records Prometheus metrics, labelled by route pattern rather than
 * URL so a scan of random paths cannot blow up the series count. The metrics are served on their
 * own listener (metrics-listener.ts); on this port only with `metricsToken` (METRICS_TOKEN), to
 * callers that present it as a bearer token, and otherwise /metrics is a 404 like any unknown path.
 */
export function registerObservability(app: FastifyInstance, { metricsToken }: { metricsToken?: string } = {}): void {
  // Callback hooks, not async ones: nothing here waits, and an async hook costs every request a
  // promise and its microtasks (docs/performance.md).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? '(unmatched)',
      status_code: String(reply.statusCode),
    };
    requestDuration.observe(labels, reply.elapsedTime / 1000);
    requests.inc(labels);
    done();
  });
  if (!metricsToken) return;
  const expected = createHash('sha256').update(`Bearer ${metricsToken}`).digest();
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    const given = createHash('sha256')
      .update(request.headers.authorization ?? '')
      .digest();
    if (!timingSafeEqual(given, expected)) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw new UnauthenticatedError(
        'GET /metrics on this port needs the METRICS_TOKEN as a bearer token (Authorization: Bearer <token>)',
      );
    }
    reply.type(metricsRegistry.contentType);
    return metricsRegistry.metrics();
  });
}
