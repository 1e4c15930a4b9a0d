import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../support/global-setup';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { startPrinterStub, type PrinterStub } from '../support/printer-stub';
import { freePort, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { followOrderLine, type ResumingSubscriber } from '../support/resuming-subscriber';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const EVENT_SECRET = `whsec_${Buffer.from('fault-test-psp-event-secret-0001').toString('base64')}`;
const JOB_SECRET = `whsec_${Buffer.from('fault-test-printer-job-secret-01').toString('base64')}`;
const WALK = [
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
];

/**
 * The API process SIGKILLed around `/v2/print` and in the middle of a render, then started again as
 * the README starts it: every acknowledged order completes exactly once, the printer creates each
 * job once, and a dashboard that reconnects with its last sequence sees every status once, in order.
 */
describe('the API process killed around /v2/print and mid-render', () => {
  let postgres: PrivatePostgres | undefined;
  let service: ServiceProcess | undefined;
  let printer: PrinterStub | undefined;
  let dataDir: string | undefined;
  const subscribers: ResumingSubscriber[] = [];
  afterAll(async () => {
    await Promise.all(subscribers.map((s) => s.close()));
    await service?.stop();
    await printer?.close();
    await postgres?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('completes every acknowledged order once after each crash', async () => {
    postgres = await startPrivatePostgres();
    await adminQuery(postgres.serverUrl, 'CREATE DATABASE photobook');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-print-crash-'));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    printer = await startPrinterStub({ serviceUrl: () => url, eventSecret: EVENT_SECRET });
    const env = {
      DATABASE_URL: `${postgres.serverUrl}/photobook`,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: undefined,
      ALLOW_LOOPBACK_URLS: 'true',
      PRINTER: 'http',
      PRINTER_HTTP_URL: printer.url,
      PRINTER_HTTP_SECRET: JOB_SECRET,
      PSP_WEBHOOK_SECRETS: `local=${EVENT_SECRET}`,
    };
    const start = async () => (service = await startServiceProcess(env));
    await start();
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(`${postgres.serverUrl}/photobook`, demo.clientId);
    const live = demo.credentials.prod;
    const auth = serviceHeader(live);
    const wsUrl = `${url.replace(/^http/, 'ws')}/graphql`;

    const projects: string[] = [];
    for (let i = 0; i < 2; i++) {
      const generated = await post(
        url,
        '/v2/generate',
        { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: `crash-${i}` },
        auth,
      );
      expect(generated.status).toBe(200);
      projects.push(new URL(generated.body.url).searchParams.get('id')!);
    }
    for (const id of projects) {
      await waitFor(
        async () =>
          (await request(url, 'GET', `/v2/project/status?id=${id}`, { headers: auth })).body.status?.project ===
          'editable',
        60_000,
        `${id} editable`,
      );
    }

    // 1. Killed right after it answered: the order was acknowledged, so it must complete.
    const dashboard = followOrderLine(wsUrl, live, 'crash-after', projects[0]);
    subscribers.push(dashboard);
    expect((await post(url, '/v2/print', printBody('crash-after', projects[0]), auth)).status).toBe(200);
    await service!.kill();
    await start();

    // 2. Killed before it answered: nothing was acknowledged; the shop retries the same order.
    const unanswered = post(url, '/v2/print', printBody('crash-before', projects[1]), auth).catch(
      (error: Error) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 15));
    await service!.kill();
    const outcome = await unanswered;
    await start();
    const retried = await post(url, '/v2/print', printBody('crash-before', projects[1]), auth);
    expect(retried.status).toBe(200);
    console.log(
      `print killed before answering: the client saw ${outcome instanceof Error ? outcome.message : `HTTP ${outcome.status}`}; the retry answered 200`,
    );

    // 3. Killed mid-render: some pages of a book are on disk, not all.
    const ordersDir = path.join(dataDir, 'files', demo.clientId, 'prod', 'orders');
    const pagesOnDisk = async () => {
      let count = 0;
      for (const order of await readdir(ordersDir).catch(() => [] as string[])) {
        for (const project of await readdir(path.join(ordersDir, order)).catch(() => [] as string[])) {
          count += (await readdir(path.join(ordersDir, order, project, 'pages')).catch(() => [])).length;
        }
      }
      return count;
    };
    const lineStatus = async (orderId: string, projectId: string) => {
      const { body } = await post(
        url,
        '/graphql',
        { query: `{ order(orderId: "${orderId}") { lines { projectId status } } }` },
        auth,
      );
      return body.data?.order?.lines?.find((l: { projectId: string }) => l.projectId === projectId)?.status as
        | string
        | undefined;
    };
    await waitFor(async () => (await pagesOnDisk()) >= 2, 90_000, 'pages being rendered');
    const renderedBefore = await pagesOnDisk();
    await service!.kill();
    await start();

    await waitFor(
      async () => (await lineStatus('crash-after', projects[0])) === 'complete',
      120_000,
      'crash-after complete',
    );
    await waitFor(
      async () => (await lineStatus('crash-before', projects[1])) === 'complete',
      120_000,
      'crash-before complete',
    );
    console.log(`killed mid-render with ${renderedBefore} page files on disk; both orders complete after 3 crashes`);

    // Exactly once: one order each, every status once and in order, one job per line at the printer.
    for (const [orderId, projectId] of [
      ['crash-after', projects[0]],
      ['crash-before', projects[1]],
    ]) {
      const { body } = await post(
        url,
        '/graphql',
        { query: `{ order(orderId: "${orderId}") { lines { projectId status } } }` },
        auth,
      );
      expect(body.data.order.lines).toHaveLength(1);
      const history = await readHistory(postgres.serverUrl, `${orderId}/${projectId}`);
      expect(history).toEqual(WALK);
    }
    expect(printer.jobs.size).toBe(2);
    const keys = new Set(printer.requests.map((r) => r.jobKey));
    expect(keys.size).toBe(2);
    for (const r of printer.requests) expect(r.idempotencyKey).toBe(r.jobKey);
    console.log(`printer: ${printer.requests.length} job requests for ${printer.jobs.size} jobs`);

    // The dashboard lost its socket at every crash, resumed with its last sequence, and saw it all once.
    await waitFor(async () => dashboard.events.at(-1)?.status === 'complete', 30_000, 'the dashboard to see complete');
    expect(dashboard.events.map((e) => e.sequence)).toEqual(WALK.map((_, i) => i + 1));
    expect(dashboard.events.map((e) => e.status)).toEqual(WALK);
    expect(dashboard.reconnects).toBeGreaterThanOrEqual(2);
  }, 300_000);
});

async function readHistory(serverUrl: string, subjectId: string): Promise<string[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: `${serverUrl}/photobook` });
  await client.connect();
  try {
    const { rows } = await client.query<{ status: string }>(
      `SELECT status FROM status_events WHERE subject_type = 'order' AND subject_id = $1 ORDER BY sequence`,
      [subjectId],
    );
    return rows.map((r) => r.status);
  } finally {
    await client.end();
  }
}
