import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../support/harness';
import { post, request, serviceHeader } from '../support/http';
import { printBody } from '../support/print-fixtures';
import { freePort } from '../support/private-postgres';
import { startServiceProcess, type ServiceProcess } from '../support/service-process';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { waitFor } from '../support/wait';
import { waivePhotoMinimum } from '../support/photo-minimum';

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
/** The receiver holds its answer to this request long enough for the service to be killed meanwhile. */
const HELD_REQUEST = 3;

/**
 * The service SIGKILLed while a webhook delivery waits for the receiver's answer: after the restart
 * every event of the order still arrives, each under one stable id and body, in sequence order per
 * line, and no change produced a second event.
 */
describe('the service killed in the middle of a webhook delivery', () => {
  let service: ServiceProcess | undefined;
  let receiver: WebhookReceiver | undefined;
  let database: { url: string; drop(): Promise<void> } | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    await service?.stop();
    await receiver?.close();
    await database?.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('delivers every event once per id after the restart', async () => {
    database = await createTestDatabase();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'photobook-webhook-kill-'));
    receiver = await startWebhookReceiver((_path, nth) =>
      nth === HELD_REQUEST ? { status: 200, delayMs: 8_000 } : 200,
    );
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_ADDRESS: undefined,
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '300ms',
      WEBHOOK_RETRY_SPACING: '200ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    };
    service = await startServiceProcess(env);
    const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-client.json'), 'utf8'));
    // These orders test the service, not the book: no 20-photo minimum (support/photo-minimum.ts).
    await waivePhotoMinimum(database.url, demo.clientId);
    const auth = serviceHeader(demo.credentials.dev);
    const set = await post(
      url,
      '/graphql',
      {
        query: 'mutation ($url: String!) { setWebhook(url: $url) { secret } }',
        variables: { url: receiver.url('/hook') },
      },
      auth,
    );
    const secret = set.body.data.setWebhook.secret as string;

    const generated = await post(
      url,
      '/v2/generate',
      { sku: 'PB-HC-15-S', psp: 'local', marketId: 0, userId: 'killed-delivery' },
      auth,
    );
    const projectId = new URL(generated.body.url).searchParams.get('id')!;
    await waitFor(
      async () =>
        (await request(url, 'GET', `/v2/project/status?id=${projectId}`, { headers: auth })).body.status?.project ===
        'editable',
      60_000,
      'editable',
    );
    expect((await post(url, '/v2/print', printBody('kill-1', projectId), auth)).status).toBe(200);

    await waitFor(async () => receiver!.received.length >= HELD_REQUEST, 60_000, 'the held request');
    const held = receiver.received[HELD_REQUEST - 1];
    await service.kill();
    service = await startServiceProcess(env);

    const lineStatus = async () =>
      (await request(url, 'GET', '/v2/order?orderId=kill-1', { headers: auth })).body.lines?.[0]?.status;
    await waitFor(async () => (await lineStatus()) === 'complete', 120_000, 'complete');
    const outbox: { id: string; type: string; sequence: number }[] = (
      await request(url, 'GET', '/v2/events?orderId=kill-1', { headers: auth })
    ).body.data;
    expect(outbox).toHaveLength(WALK.length + 2);
    await waitFor(
      async () => new Set(receiver!.received.map((r) => r.body.id)).size === outbox.length,
      60_000,
      'every event received',
    );

    // One event per change: no type and sequence twice, whatever the engine replayed.
    expect(new Set(outbox.map((e) => `${e.type}:${e.sequence}`)).size).toBe(outbox.length);
    const verifier = new Webhook(secret);
    const bodyOf = new Map<string, string>();
    for (const r of receiver.received) {
      expect(() => verifier.verify(r.raw, r.headers)).not.toThrow();
      expect(r.headers['webhook-id']).toBe(r.body.id);
      // A repeat carries the same event exactly: a receiver dedupes on webhook-id.
      if (bodyOf.has(r.body.id)) expect(r.raw).toBe(bodyOf.get(r.body.id));
      bodyOf.set(r.body.id, r.raw);
    }
    expect([...bodyOf.keys()].sort()).toEqual(outbox.map((e) => e.id).sort());
    // Only the delivery cut off by the kill was sent again; every other event arrived once.
    const repeats = receiver.received.filter(
      (r, i) => receiver!.received.findIndex((s) => s.body.id === r.body.id) !== i,
    );
    expect(repeats.map((r) => r.body.id)).toEqual([held.body.id]);

    // First arrivals keep the line's order.
    const firstArrivals = receiver.received.filter(
      (r, i) => receiver!.received.findIndex((s) => s.body.id === r.body.id) === i,
    );
    const changes = firstArrivals.filter((r) => r.body.type === 'order.line.status_changed').map((r) => r.body);
    expect(changes.map((b) => b.sequence)).toEqual(WALK.map((_, i) => i + 1));
    expect(changes.map((b) => b.data.line.status)).toEqual(WALK);
  }, 300_000);
});
