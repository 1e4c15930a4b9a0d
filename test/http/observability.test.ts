import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/harness';
import { post, request } from '../support/http';
import { scrape } from '../support/prometheus';
import { waitFor } from '../support/wait';

describe('health, request ids and metrics', () => {
  let api: TestService;

  beforeAll(async () => {
    api = await startTestService();
  });
  afterAll(() => api?.stop());

  it('answers liveness and readiness', async () => {
    expect((await request(api.url, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
    expect((await request(api.url, 'GET', '/readyz')).body).toEqual({ status: 'ready' });
  });

  it('echoes a safe request id, and makes one otherwise', async () => {
    const given = await request(api.url, 'GET', '/healthz', { headers: { 'x-request-id': 'trace-123' } });
    expect(given.headers.get('x-request-id')).toBe('trace-123');
    const unsafe = await request(api.url, 'GET', '/healthz', {
      headers: { 'x-request-id': 'bad id with spaces; and <script>' },
    });
    expect(unsafe.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const problem = await post(api.url, '/api/v2/misc/get-market.php', {}, { 'x-request-id': 'trace-456' });
    expect(problem.body.requestId).toBe('trace-456');
  });

  it('exposes Prometheus metrics labelled by route pattern on the metrics listener only', async () => {
    await request(api.url, 'GET', '/healthz');
    await request(api.url, 'GET', '/no/such/path/12345');
    const response = await fetch(api.metricsUrl!);
    expect(new URL(api.metricsUrl!).hostname).toBe('127.0.0.1');
    expect(new URL(api.metricsUrl!).port).not.toBe(new URL(api.url).port);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    const body = await response.text();
    expect(body).toMatch(/http_request_duration_seconds_count\{method="GET",route="\/healthz",status_code="200"\} \d+/);
    expect(body).toContain('route="(unmatched)"');
    expect(body).not.toContain('12345');
    expect(body).toContain('process_cpu_user_seconds_total');
    // Without METRICS_TOKEN the public port has no /metrics at all.
    const publicMetrics = await request(api.url, 'GET', '/metrics');
    expect(publicMetrics.status).toBe(404);
    expect(publicMetrics.body.code).toBe('NO_SUCH_ROUTE');
    // The listener serves nothing else.
    expect((await fetch(new URL('/healthz', api.metricsUrl!))).status).toBe(404);
    expect((await fetch(api.metricsUrl!, { method: 'POST' })).status).toBe(404);
  });
});

// A service of its own, started once the one above has stopped: the embedded workflow engine
// (DBOS) runs once per process.
describe('readiness', () => {
  it('reports not ready when the database is gone', async () => {
    const other = await startTestService();
    try {
      const orm = other.service.orm;
      await orm.close(true);
      const { status, body } = await request(other.url, 'GET', '/readyz');
      expect(status).toBe(503);
      expect(body.status).toBe('unavailable');
      // The metrics still answer; the gauges read from the database count their failed readings.
      const failedReadings = async () =>
        (await scrape(other.metricsUrl!)).value('photobook_metrics_read_failures_total', { source: 'order_lines' }) ??
        0;
      await waitFor(async () => (await failedReadings()) >= 1, 10_000, 'a failed reading counted');
    } finally {
      // Its database is closed, so the service's own stop (which closes it again) is not used.
      await other.service.app.close();
      await other.service.bus.stop();
      await other.service.engine.stop();
    }
  });
});
