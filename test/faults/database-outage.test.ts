import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminQuery } from '../support/global-setup';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

const OUTAGE_MS = 60_000;

/**
 * Issue 39: with its PostgreSQL away for 21.5 s the service answered 503 for 10.6 s, then exited
 * (status 70, "executor lease not taken back in time"), and nothing restarted it. Now a minute-long
 * outage passes: every request meanwhile answers 503 with Retry-After and the SERVICE_UNAVAILABLE
 * code (never a 500, never a driver's code), the process stays up, takes its executor lease back
 * when the database returns, and the order whose fulfilment was under way completes.
 */
describe('a 60-second database outage', () => {
  let postgres: PrivatePostgres | undefined;
  let service: ServiceProcess | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    if (service?.stderr()) console.log(service.stderr().slice(-3000));
    await service?.stop();
    await postgres?.destroy();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('is ridden out: 503 throughout, 200 after, no exit, the flow under way completes', async () => {
    postgres = await startPrivatePostgres();
    await adminQuery(postgres.serverUrl, 'CREATE DATABASE photobook');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-outage-'));
    service = await startServiceProcess({
      DATABASE_URL: `${postgres.serverUrl}/photobook`,
      DATA_DIR: dataDir,
      PORT: '0',
      TEMPORAL_ADDRESS: undefined,
      SANDBOX_PRINTER_STEP: '3s',
    });
    const url = service.url;
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(`${postgres.serverUrl}/photobook`, demo.clientId);
    const auth = serviceHeader(demo.credentials.dev);
    const generated = await post(
      url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'outage' },
      auth,
    );
    const bookId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(url, 'GET', `/v2/project/status?id=${bookId}`, { headers: auth })).body.status?.project ===
        'editable',
      60_000,
      'book editable',
    );
    expect((await post(url, '/v2/print', printBody('through-outage', bookId), auth)).status).toBe(200);
    const line = async () =>
      (await post(url, '/graphql', { query: '{ order(orderId: "through-outage") { lines { status } } }' }, auth)).body
        .data?.order?.lines?.[0]?.status;
    // Under way: the sandbox printer walks its statuses, one every 3 s.
    await waitFor(
      async () => ['sent printjob', 'accepted', 'printing'].includes(await line()),
      90_000,
      'the fulfilment under way',
    );

    await postgres.stop('fast');
    const downAt = Date.now();
    const answers = new Map<string, number>();
    const unexpected: unknown[] = [];
    while (Date.now() - downAt < OUTAGE_MS) {
      const replies = await Promise.all([
        post(url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'outage' }, auth),
        request(url, 'GET', `/v2/project/status?id=${bookId}`, { headers: auth }),
        post(url, '/graphql', { query: '{ order(orderId: "through-outage") { lines { status } } }' }, auth),
        post(url, '/v2/print', printBody('during-outage', bookId), auth),
        post(url, '/api/v2/product/list-product.php', { env: 'dev', key: demo.credentials.dev.apiKey, os: 'web' }),
      ]);
      for (const reply of replies) {
        const code = reply.body?.code ?? reply.body?.errors?.[0]?.extensions?.code;
        answers.set(`${reply.status} ${code}`, (answers.get(`${reply.status} ${code}`) ?? 0) + 1);
        if (
          reply.status !== 503 ||
          code !== 'SERVICE_UNAVAILABLE' ||
          !/^\d+$/.test(reply.headers.get('retry-after') ?? '')
        )
          unexpected.push({ status: reply.status, body: reply.body });
      }
      expect(service.child.exitCode).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    console.log(
      `during a ${OUTAGE_MS / 1000} s outage: ${JSON.stringify(Object.fromEntries(answers))} (status code: count)`,
    );
    expect(unexpected).toEqual([]);

    await postgres.start();
    await waitFor(async () => (await request(url, 'GET', '/readyz')).status === 200, 30_000, 'ready again');
    await waitFor(
      async () =>
        (await post(url, '/v2/generate', { sku: 'PB-HC-A4-P', psp: 'local', marketId: 0, userId: 'outage' }, auth))
          .status === 200,
      60_000,
      'a project generated after the outage',
    );
    await waitFor(async () => (await line()) === 'complete', 120_000, 'the order under way complete');
    expect(service.child.exitCode).toBeNull();
    // It had lost its executor lease (stopping its flows), and took it back: it did not exit for it.
    expect(service.logs.some((l) => l.msg?.startsWith('executor lease not taken back in time'))).toBe(true);
    expect(
      service.logs.some(
        (l) => l.msg === 'executor lease taken back and the workflow engine launched again: pending runs resume',
      ),
    ).toBe(true);
  }, 420_000);
});
