import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { startPrinterStub, type PrinterStub } from '../support/printer-stub';
import { freePort } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const EVENT_SECRET = `whsec_${Buffer.from('timeout-test-psp-event-secret-01').toString('base64')}`;
const JOB_SECRET = `whsec_${Buffer.from('timeout-test-printer-job-secret1').toString('base64')}`;

/** A shop's webhook endpoint whose first answer comes only after `firstDelayMs`: a timeout for us. */
async function slowReceiver(firstDelayMs: number) {
  const received: { webhookId: string; at: number }[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push({ webhookId: String(req.headers['webhook-id']), at: Date.now() });
      const delay = received.length === 1 ? firstDelayMs : 0;
      setTimeout(() => res.writeHead(204).end(), delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * The printer's job endpoint and a shop's webhook receiver that do not answer in time: the job is
 * sent again under the same Idempotency-Key and created once, the order completes once; the webhook
 * is retried under the same webhook-id until it is taken, and then not sent again.
 */
describe('outbound endpoints that time out', () => {
  let service: ServiceProcess | undefined;
  let printer: PrinterStub | undefined;
  let receiver: Awaited<ReturnType<typeof slowReceiver>> | undefined;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    await printer?.close();
    await receiver?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('retries both idempotently and delivers each once', async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-timeouts-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    printer = await startPrinterStub({
      serviceUrl: () => url,
      eventSecret: EVENT_SECRET,
      delayOf: (nth) => (nth === 1 ? 4000 : 0),
    });
    receiver = await slowReceiver(12_000); // the webhook timeout is 10 s
    service = await startServiceProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: undefined,
      ALLOW_LOOPBACK_URLS: 'true',
      PRINTER: 'http',
      PRINTER_HTTP_URL: printer.url,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      PRINTER_HTTP_TIMEOUT: '1s',
      PSP_WEBHOOK_SECRETS: `local=${EVENT_SECRET}`,
      WEBHOOK_RETRY_SPACING: '200ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    });
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(database.url, demo.clientId);
    const auth = serviceHeader(demo.credentials.prod);
    const webhook = await post(
      url,
      '/graphql',
      { query: `mutation { setWebhook(url: "${receiver.url}") { url } }` },
      auth,
    );
    expect(webhook.body.errors).toBeUndefined();

    const generated = await post(
      url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'slow', callback: receiver.url },
      auth,
    );
    expect(generated.status).toBe(200);
    const projectId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status?.project ===
        'editable',
      60_000,
      'editable',
    );
    expect((await post(url, '/v2/print', printBody('slow-printer', projectId), auth)).status).toBe(200);

    const lineStatus = async () => {
      const { body } = await post(
        url,
        '/graphql',
        { query: '{ order(orderId: "slow-printer") { lines { status } } }' },
        auth,
      );
      return body.data?.order?.lines?.[0]?.status as string | undefined;
    };
    await waitFor(async () => (await lineStatus()) === 'complete', 150_000, 'the order complete');
    // The printer: asked again after the timeout, with the same key; one job.
    expect(printer.requests.length).toBeGreaterThanOrEqual(2);
    expect(new Set(printer.requests.map((r) => r.idempotencyKey))).toEqual(new Set([printer.requests[0].jobKey]));
    expect(printer.jobs.size).toBe(1);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ status: string }>(
      `SELECT status FROM status_events WHERE subject_type = 'order' ORDER BY sequence`,
    );
    await client.end();
    expect(rows.map((r) => r.status)).toEqual([
      'paid',
      'received',
      'processing',
      'rendering',
      'rendered',
      'sending printjob',
      'sent printjob',
      'accepted',
      'printing',
      'printed',
      'delivering',
      'complete',
    ]);

    // The webhook: the timed-out attempt, then a retry under the same webhook-id, then nothing more.
    // (The order's events go to the same URL, each under its own id.)
    const callback = () => receiver!.received.filter((r) => r.webhookId === receiver!.received[0].webhookId);
    await waitFor(async () => callback().length >= 2, 60_000, 'the webhook retried');
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(callback()).toHaveLength(2);
    console.log(
      `printer: ${printer.requests.length} requests, ${printer.jobs.size} job; webhook: ${callback().length} attempts, one webhook-id`,
    );
  }, 240_000);
});
