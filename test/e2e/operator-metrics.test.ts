import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_NAMES } from '../../src/engine/create-engine';
import { startTestService, type TestService } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { makePhoto, startPhotoServer, type PhotoServer } from '../support/photo-server';
import { editableProject, printBody } from '../support/print-fixtures';
import { scrape, type Scrape } from '../support/prometheus';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';

const JOB_SECRET = `whsec_${Buffer.from('metrics-test-printer-job-secret1').toString('base64')}`;
const METRICS_TOKEN = 'metrics-test-token-0123456789abcdefghij';

/** A loopback port nothing listens on: a printer that is down. */
async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * The series an operator pages on (docs/operations.md, Metrics), read from the metrics listener
 * after real work: a book built from photos made by sharp, printed in the sandbox with its events
 * sent to a receiver on loopback, a webhook endpoint that stays down, a live order whose printer
 * (PRINTER=http) does not answer.
 */
describe('metrics an operator pages on', () => {
  let api: TestService;
  let photos: PhotoServer;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    photos = await startPhotoServer({
      '/a.jpg': { body: await makePhoto({ width: 2400, height: 3200, takenAt: '2024:07:01 10:00:00' }) },
      '/b.jpg': {
        body: await makePhoto({ width: 2400, height: 3200, colour: '#c0392b', takenAt: '2024:07:02 10:00:00' }),
      },
    });
    receiver = await startWebhookReceiver((hookPath, nth) => {
      if (hookPath === '/down') return 503;
      return hookPath === '/shop' && nth === 1 ? 500 : 200;
    });
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '100ms',
      // Long enough to see a delivery waiting between its retries: the events' 27.6 h in about 20 s
      // (its last waits 1.4 s, 3.6 s, 7.2 s and 7.2 s).
      WEBHOOK_RETRY_SCALE: '0.0002',
      PRINTER: 'http',
      PRINTER_HTTP_URL: `http://127.0.0.1:${await closedPort()}/jobs`,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      METRICS_TOKEN,
    });
  });
  afterAll(async () => {
    await api?.stop();
    await receiver?.close();
    await photos?.close();
  });

  const metrics = () => scrape(api.metricsUrl!);
  const grew = (before: Scrape, after: Scrape, name: string, labels: Record<string, string>) =>
    (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0);
  const shopWith = async (name: string, hookPath?: string) => {
    const client = await api.createClient(name);
    const dev = serviceHeader(client.credentials.dev);
    if (hookPath) {
      const query = 'mutation ($url: String!) { setWebhook(url: $url) { secret } }';
      const set = await post(api.url, '/graphql', { query, variables: { url: receiver.url(hookPath) } }, dev);
      expect(set.body.errors).toBeUndefined();
    }
    return { dev, prod: serviceHeader(client.credentials.prod) };
  };
  const lineStatus = async (orderId: string, auth: Record<string, string>) =>
    (await request(api.url, 'GET', `/v2/order?orderId=${orderId}`, { headers: auth })).body.lines?.[0]?.status as
      | string
      | undefined;

  it('times the renders of a sandbox order, counts its webhook outcomes, reports order lines and queues', async () => {
    const before = await metrics();
    const { dev } = await shopWith('Metrics shop', '/shop');
    const projectId = await editableProject(api, dev, {
      email: 'metrics@example.com',
      photos: [photos.url('/a.jpg'), photos.url('/b.jpg')],
    });
    expect((await post(api.url, '/v2/print', printBody('metrics-1', projectId), dev)).status).toBe(200);
    await waitFor(async () => (await lineStatus('metrics-1', dev)) === 'complete', 150_000, 'metrics-1 complete');
    // The receiver refused the first event once; the events after it were delivered.
    const delivered = await waitFor(
      async () => {
        const now = await metrics();
        return grew(before, now, 'photobook_webhook_deliveries_total', { outcome: 'delivered' }) >= 14
          ? now
          : undefined;
      },
      60_000,
      '14 events delivered',
    );
    expect(grew(before, delivered, 'photobook_webhook_deliveries_total', { outcome: 'failed_attempt' })).toBe(1);
    expect(grew(before, delivered, 'photobook_webhook_deliveries_total', { outcome: 'gave_up' })).toBe(0);

    const printFiles = await request(api.url, 'GET', '/v2/order/print-files?orderId=metrics-1', { headers: dev });
    const files = printFiles.body.lines[0].printFiles;
    const interiorPages = files.pages - 1;
    const after = await metrics();
    // One render of each interior page, one cover sheet, one assembly of the PDFs, one cover preview of the build.
    expect(grew(before, after, 'photobook_render_duration_seconds_count', { kind: 'print_page' })).toBe(interiorPages);
    expect(grew(before, after, 'photobook_render_duration_seconds_count', { kind: 'cover_sheet' })).toBe(1);
    expect(grew(before, after, 'photobook_render_duration_seconds_count', { kind: 'print_files' })).toBe(1);
    expect(grew(before, after, 'photobook_render_duration_seconds_count', { kind: 'cover_preview' })).toBe(1);
    for (const kind of ['print_page', 'cover_sheet', 'print_files', 'cover_preview']) {
      const seconds = grew(before, after, 'photobook_render_duration_seconds_sum', { kind });
      // Real work at print resolution takes time, and none of it a minute.
      expect(seconds, kind).toBeGreaterThan(0);
      expect(seconds / (after.value('photobook_render_duration_seconds_count', { kind }) ?? 1), kind).toBeLessThan(60);
      expect(after.value('photobook_render_failures_total', { kind }) ?? 0, kind).toBe(0);
      // The +Inf bucket holds every render.
      const count = after.value('photobook_render_duration_seconds_count', { kind });
      expect(after.value('photobook_render_duration_seconds_bucket', { kind, le: '+Inf' })).toBe(count);
    }
    expect(after.value('photobook_flow_failures_total', { flow: 'printFulfilment' }) ?? 0).toBe(0);

    // Deployment-wide gauges, read from the database at scrape time (cached for 5 s).
    const settled = await waitFor(
      async () => {
        const now = await metrics();
        return now.value('photobook_order_lines', { status: 'complete' }) === 1 ? now : undefined;
      },
      15_000,
      'the complete line counted',
    );
    expect(settled.value('photobook_order_lines', { status: 'rendering' })).toBe(0);
    expect(settled.samples.filter((sample) => sample.name === 'photobook_order_lines').length).toBeGreaterThan(20);
    for (const queue of QUEUE_NAMES) {
      expect(settled.value('photobook_queue_waiting_runs', { queue }), queue).toBeGreaterThanOrEqual(0);
      expect(settled.value('photobook_queue_running_runs', { queue }), queue).toBeGreaterThanOrEqual(0);
      expect(settled.value('photobook_queue_oldest_waiting_seconds', { queue }), queue).toBeGreaterThanOrEqual(0);
    }
    // Queues are labelled by name only: no tenant (client id) appears in any label.
    const labelValues = settled.samples.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.join(' ')).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(settled.value('photobook_webhook_oldest_pending_seconds', { env: 'prod' })).toBe(0);
    const prints = settled.value('http_requests_total', { method: 'POST', route: '/v2/print', status_code: '200' });
    expect(prints).toBeGreaterThanOrEqual(1);
  }, 240_000);

  it('shows a webhook endpoint that is down as lag while its delivery waits, then as a delivery given up', async () => {
    const before = await metrics();
    const { dev } = await shopWith('Shop whose hook is down', '/down');
    const sent = await post(api.url, '/graphql', { query: 'mutation { sendTestWebhook { webhookId } }' }, dev);
    expect(sent.body.errors).toBeUndefined();
    // Between its retries the delivery is pending, and ages.
    const lagging = await waitFor(
      async () => {
        const now = await metrics();
        const pending = now.value('photobook_webhook_pending_deliveries', { env: 'dev' }) ?? 0;
        const oldest = now.value('photobook_webhook_oldest_pending_seconds', { env: 'dev' }) ?? 0;
        return pending >= 1 && oldest > 1 ? now : undefined;
      },
      30_000,
      'the delivery pending and lagging',
    );
    expect(lagging.value('photobook_webhook_oldest_pending_seconds', { env: 'dev' })).toBeLessThan(60);
    // EVENT_RETRIES (7) retries on the scaled schedule, then given up: the delivery, then its flow's end.
    const gaveUp = await waitFor(
      async () => {
        const now = await metrics();
        const ended = { flow: 'webhookDelivery', reason: 'gave_up' };
        const flowEnded = grew(before, now, 'photobook_flow_failures_total', ended);
        const givenUp = grew(before, now, 'photobook_webhook_deliveries_total', { outcome: 'gave_up' });
        return flowEnded === 1 && givenUp === 1 ? now : undefined;
      },
      60_000,
      'the delivery given up',
    );
    expect(grew(before, gaveUp, 'photobook_webhook_deliveries_total', { outcome: 'failed_attempt' })).toBe(8);
    expect(receiver.received.filter((r) => r.path === '/down')).toHaveLength(8);
    // Nothing waits any more: the lag is back to 0 once the cached reading expires.
    const lag = async () => (await metrics()).value('photobook_webhook_oldest_pending_seconds', { env: 'dev' });
    await waitFor(async () => (await lag()) === 0, 15_000, 'no lag');
  }, 120_000);

  it('counts the errors of a live printer that does not answer, by printer', async () => {
    const before = await metrics();
    const { prod } = await shopWith('Live shop');
    const projectId = await editableProject(api, prod, { email: 'live@example.com', photos: [photos.url('/a.jpg')] });
    expect((await post(api.url, '/v2/print', printBody('metrics-live-1', projectId), prod)).status).toBe(200);
    const failing = await waitFor(
      async () => {
        const now = await metrics();
        const unavailable = { printer: 'http', operation: 'submit', reason: 'unavailable' };
        return grew(before, now, 'photobook_printer_errors_total', unavailable) >= 1 ? now : undefined;
      },
      // The order renders first, in the render process at nice 10 (render-process.ts): while the whole
      // suite keeps both cores busy at nice 0 it gets little CPU, and once waited over 150 s here.
      270_000,
      'a printer error counted',
    );
    // Live renders ran on their own queue; the sandbox printer had no error.
    expect(grew(before, failing, 'photobook_render_duration_seconds_count', { kind: 'print_page' })).toBeGreaterThan(0);
    expect(failing.value('photobook_printer_errors_total', { printer: 'sandbox' })).toBeUndefined();
    expect(await lineStatus('metrics-live-1', prod)).toBe('sending printjob');
  }, 330_000);

  it('serves /metrics on the public port only to a caller presenting METRICS_TOKEN', async () => {
    const none = await request(api.url, 'GET', '/metrics');
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(none.body).toMatchObject({ code: 'UNAUTHENTICATED', detail: expect.stringContaining('METRICS_TOKEN') });
    const withAuthorization = (authorization: string) =>
      request(api.url, 'GET', '/metrics', { headers: { authorization } });
    expect((await withAuthorization(`Bearer ${METRICS_TOKEN}x`)).status).toBe(401);
    expect((await withAuthorization(METRICS_TOKEN)).status).toBe(401);
    const given = await fetch(`${api.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(given.status).toBe(200);
    expect(await given.text()).toContain('# TYPE photobook_render_duration_seconds histogram');
  });
});
