import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventRecord, OrderLine, WebhookDelivery } from '../../../src/db/entities';
import { signPspEvent } from '../../support/psp-events';
import { scopeToTenant } from '../../../src/db/tenant-filter';
import { moveOrderLine } from '../../../src/services/orders/order-line-status';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

const PSP_SECRET = `whsec_${Buffer.from('order-events-test-psp-secret-001').toString('base64')}`;
const SANDBOX_WALK = [
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
 * Order events end to end: the sandbox and local printers, signed webhooks to a receiver on
 * loopback, the REST and GraphQL look-ups and actions, and /v2/events.
 */
describe('order events, look-up and actions', () => {
  let api: TestService;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      SANDBOX_PRINTER_STEP: '150ms',
      WEBHOOK_RETRY_SPACING: '100ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
      PSP_WEBHOOK_SECRETS: `local=${PSP_SECRET}`,
    });
    receiver = await startWebhookReceiver((hookPath, nth) =>
      hookPath === '/shop' && nth <= 2 ? 500 : hookPath === '/down' ? 503 : 200,
    );
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  const graphql = (auth: Record<string, string>, query: string, variables?: Record<string, unknown>) =>
    graphqlAt(api.url, auth, query, variables);
  const shopWith = async (name: string, hookPath: string, env: 'dev' | 'prod' = 'dev') => {
    const client = await api.createClient(name);
    const auth = serviceHeader(client.credentials[env]);
    const set = await graphql(auth, 'mutation ($url: String!) { setWebhook(url: $url) { secret } }', {
      url: receiver.url(hookPath),
    });
    return { client, auth, secret: set.data.setWebhook.secret as string };
  };
  const lineOf = async (projectId: string) =>
    (await api.orm()).em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order'] });
  const receivedAt = (hookPath: string) => receiver.received.filter((r) => r.path === hookPath);
  const eventsOf = async (auth: Record<string, string>, query = '') =>
    (await request(api.url, 'GET', `/v2/events${query}`, { headers: auth })).body;
  const sendPrinterEvent = (event: Record<string, unknown>) => {
    const body = JSON.stringify(event);
    return request(api.url, 'POST', '/v2/psp/local/events', {
      rawBody: body,
      headers: {
        'content-type': 'application/json',
        ...signPspEvent({ secret: PSP_SECRET, id: `evt_${Math.random().toString(36).slice(2)}`, body }),
      },
    });
  };

  it("sends a sandbox order's every status change as a signed event, in sequence order per line, each event id accepted once though the receiver failed twice", async () => {
    const { auth, secret } = await shopWith('Event shop', '/shop');
    const projectId = await editableProject(api, auth, { userId: 'events-1' });
    expect((await post(api.url, '/v2/print', printBody('ev-1', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 120_000, 'complete');

    // status_changed for each of the 12 statuses, shipped and delivered: 14 events.
    const outbox = await eventsOf(auth, '?orderId=ev-1');
    expect(outbox.data).toHaveLength(14);
    // The receiver failed its first two requests; every later one was accepted.
    await waitFor(
      async () =>
        new Set(
          receivedAt('/shop')
            .slice(2)
            .map((r) => r.body.id),
        ).size === 14,
      30_000,
      '14 events accepted',
    );

    const receipts = receivedAt('/shop');
    const verifier = new Webhook(secret);
    for (const r of receipts) {
      expect(() => verifier.verify(r.raw, r.headers)).not.toThrow();
      expect(r.headers['webhook-id']).toBe(r.body.id);
    }
    // The first two requests failed: the first event was retried, with the same id and body.
    expect(receipts[0].body.id).toBe(receipts[1].body.id);
    expect(receipts[2].body.id).toBe(receipts[0].body.id);
    expect(receipts[2].raw).toBe(receipts[0].raw);
    const acceptedReceipts = receipts.slice(2);
    const perId = new Map<string, number>();
    for (const r of acceptedReceipts) perId.set(r.body.id, (perId.get(r.body.id) ?? 0) + 1);
    expect([...perId.values()].every((n) => n === 1)).toBe(true);
    expect([...perId.keys()].sort()).toEqual(outbox.data.map((e: { id: string }) => e.id).sort());

    // In order: the line's status changes arrive with sequences 1..12 and the statuses of the walk.
    const changes = acceptedReceipts.map((r) => r.body).filter((b) => b.type === 'order.line.status_changed');
    expect(changes.map((b) => b.sequence)).toEqual(SANDBOX_WALK.map((_, i) => i + 1));
    expect(changes.map((b) => b.data.line.status)).toEqual(SANDBOX_WALK);
    expect(changes[0].data).toMatchObject({
      orderId: 'ev-1',
      line: { projectId, status: 'paid', displayStatus: 'Payment Complete', tracking: null },
    });
    const types = acceptedReceipts.map((r) => `${r.body.type}:${r.body.sequence}`);
    expect(types.slice(10, 14)).toEqual([
      'order.line.status_changed:11',
      'order.line.shipped:11',
      'order.line.status_changed:12',
      'order.line.delivered:12',
    ]);
    const shipped = acceptedReceipts.find((r) => r.body.type === 'order.line.shipped')!.body;
    expect(shipped.sequence).toBe(11);
    expect(shipped.data.line.tracking.parcels[0]).toMatchObject({
      carrier: 'DHL',
      trackingNumber: expect.stringMatching(/^JJD\d{18}$/),
      trackingUrl: expect.stringMatching(/^https:\/\//),
    });
    expect(shipped.data.line.tracking.shippedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const delivered = acceptedReceipts.find((r) => r.body.type === 'order.line.delivered')!.body;
    expect(delivered).toMatchObject({
      sequence: 12,
      data: { line: { status: 'complete', displayStatus: 'Delivered' } },
    });
    expect(delivered.data.line.tracking.deliveredAt).toMatch(/^\d{4}-/);

    // The order look-up tells the same story.
    const order = await request(api.url, 'GET', '/v2/order?orderId=ev-1', { headers: auth });
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      orderId: 'ev-1',
      shipping: { method: 'standard', cost: 5 },
      recipient: { firstName: 'Ada', address: { line1: 'Unter den Linden 1', countryIso2: 'DE', country: 'Germany' } },
      lines: [
        {
          projectId,
          status: 'complete',
          displayStatus: 'Delivered',
          sequence: 12,
          tracking: { parcels: [{ carrier: 'DHL' }] },
        },
      ],
    });
    expect(order.body.lines[0].tracking.deliveredAt).toBeGreaterThanOrEqual(order.body.lines[0].tracking.shippedAt);
    expect(order.body.actions).toEqual([
      { action: 'cancel', available: false, reason: expect.stringContaining('"complete"') },
      { action: 'update-recipient', available: false, reason: 'no line of the order is still open' },
      { action: 'update-shipping', available: false, reason: 'no line of the order is still open' },
      // Delivered: a claim is open for CLAIM_WINDOW (30 days) after delivery.
      {
        action: 'claim',
        available: true,
        until: order.body.lines[0].tracking.deliveredAt + 30 * 24 * 60 * 60 * 1000,
      },
    ]);
  }, 180_000);

  it('sends an endpoint subscribed to order.line.shipped only those, and webhook.test whenever asked', async () => {
    const { auth, secret } = await shopWith('Shipping mails', '/shipped-only');
    const chosen = await graphql(auth, 'mutation { setWebhookEventTypes(types: ["order.line.shipped"]) }');
    expect(chosen.data.setWebhookEventTypes).toEqual(['order.line.shipped']);
    const bad = await graphql(auth, 'mutation { setWebhookEventTypes(types: ["order.shipped"]) }');
    expect(bad.errors[0].extensions.code).toBe('VALIDATION_FAILED');
    expect((await graphql(auth, '{ webhook { eventTypes } }')).data.webhook.eventTypes).toEqual(['order.line.shipped']);

    const projectId = await editableProject(api, auth, { userId: 'events-2' });
    expect((await post(api.url, '/v2/print', printBody('ship-1', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 120_000, 'complete');
    // Deliveries of an order go out in order: once the delivered event's turn has passed, every earlier one has been decided.
    await waitFor(
      async () => (await (await api.orm()).em.fork().count(WebhookDelivery, { reference: 'ship-1' })) === 1,
      10_000,
      'one delivery',
    );
    await waitFor(async () => receivedAt('/shipped-only').length === 1, 10_000, 'the shipped event');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receivedAt('/shipped-only').map((r) => r.body.type)).toEqual(['order.line.shipped']);
    // Every event is still in the outbox for /v2/events.
    expect((await eventsOf(auth, '?orderId=ship-1')).data).toHaveLength(14);

    const test = await graphql(auth, 'mutation { sendTestWebhook { webhookId event status } }');
    expect(test.data.sendTestWebhook).toMatchObject({
      event: 'webhook.test',
      webhookId: expect.stringMatching(/^evt_/),
    });
    await waitFor(async () => receivedAt('/shipped-only').length === 2, 10_000, 'the test event');
    const received = receivedAt('/shipped-only')[1];
    expect(received.body).toMatchObject({
      id: test.data.sendTestWebhook.webhookId,
      type: 'webhook.test',
      sequence: null,
    });
    expect(() => new Webhook(secret).verify(received.raw, received.headers)).not.toThrow();
    // Test events are for checking a receiver, not for flooding the delivery queue: 10 a minute.
    for (let i = 1; i < 10; i++)
      expect((await graphql(auth, 'mutation { sendTestWebhook { id } }')).errors).toBeUndefined();
    expect((await graphql(auth, 'mutation { sendTestWebhook { id } }')).errors[0].extensions.code).toBe('RATE_LIMITED');
  }, 180_000);

  it('sends nothing for a change that rolled back; the committed cancel before the job is sent stops the flow and the printer never gets it', async () => {
    const { client, auth } = await shopWith('Rollback shop', '/rollback', 'prod');
    const projectId = await editableProject(api, auth, { userId: 'events-3' });
    expect(
      (await post(api.url, '/v2/print', { ...printBody('rb-1', projectId), paymentPending: true }, auth)).status,
    ).toBe(200);
    await waitFor(async () => receivedAt('/rollback').length === 1, 10_000, 'the waiting event');
    const line = await lineOf(projectId);
    const orm = await api.orm();

    const em = scopeToTenant(api.service.orm.em.fork(), { clientId: client.clientId, env: 'prod' });
    await expect(
      em.transactional(async (tx) => {
        await moveOrderLine(tx, line.id, { status: 'cancelled' });
        throw new Error('the surrounding change failed');
      }),
    ).rejects.toThrow('the surrounding change failed');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(receivedAt('/rollback')).toHaveLength(1);
    expect(await orm.em.fork().count(EventRecord, { orderId: 'rb-1' })).toBe(1);
    expect((await lineOf(projectId)).status).toBe('waiting');

    // The shop cancels for real: the waiting flow ends, nothing is rendered or sent to the printer.
    const actions = await request(api.url, 'GET', '/v2/order/actions?orderId=rb-1', { headers: auth });
    expect(actions.body.actions.map((a: { available: boolean }) => a.available)).toEqual([true, true, true, false]);
    const cancelled = await request(api.url, 'POST', '/v2/order/cancel', {
      body: { orderId: 'rb-1' },
      headers: { ...auth, 'idempotency-key': 'cancel-rb-1' },
    });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(cancelled.body.lines[0]).toMatchObject({ status: 'cancelled', displayStatus: 'Cancelled', sequence: 2 });
    const again = await request(api.url, 'POST', '/v2/order/cancel', {
      body: { orderId: 'rb-1' },
      headers: { ...auth, 'idempotency-key': 'cancel-rb-1' },
    });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    await waitFor(async () => receivedAt('/rollback').length === 3, 10_000, 'the cancel events');
    expect(receivedAt('/rollback').map((r) => r.body.type)).toEqual([
      'order.line.status_changed',
      'order.line.status_changed',
      'order.cancelled',
    ]);
    expect(receivedAt('/rollback')[2].body.data).toMatchObject({
      orderId: 'rb-1',
      wholeOrder: true,
      lines: [{ projectId, status: 'cancelled', sequence: 2 }],
    });

    const paid = await graphql(auth, 'mutation { confirmPayment(orderId: "rb-1") { lines { status } } }');
    expect(paid.errors[0].extensions.code).toBe('ORDER_STATUS_CONFLICT');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await lineOf(projectId)).status).toBe('cancelled');
    expect((await lineOf(projectId)).pdfKey ?? null).toBeNull();
    expect(existsSync(path.join(api.config.dataDir, 'printjobs', 'rb-1'))).toBe(false);
  }, 120_000);

  it('re-validates update-recipient like /v2/print and the print job carries the new address; once the job is sent it is a 409', async () => {
    const { auth } = await shopWith('Address shop', '/address', 'prod');
    const projectId = await editableProject(api, auth, { userId: 'events-4' });
    expect(
      (await post(api.url, '/v2/print', { ...printBody('addr-1', projectId), paymentPending: true }, auth)).status,
    ).toBe(200);

    const bad = await post(
      api.url,
      '/v2/order/update-recipient',
      { orderId: 'addr-1', user: { address: { line1: ' ', postcode: '75001', countryIso2: 'XX' } } },
      auth,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      { path: 'user.address.line1', message: 'is required' },
      { path: 'user.address.countryIso2', message: 'must be an ISO 3166-1 alpha-2 country code' },
    ]);
    // The destination checks of /v2/print too: a French postcode has five digits.
    const badPostcode = await post(
      api.url,
      '/v2/order/update-recipient',
      { orderId: 'addr-1', user: { address: { line1: '5 Rue de Rivoli', postcode: '7500', countryIso2: 'FR' } } },
      auth,
    );
    expect(badPostcode.status).toBe(422);
    expect(badPostcode.body).toMatchObject({ code: 'INVALID_POSTCODE', errors: [{ path: 'user.address.postcode' }] });
    expect(
      (await request(api.url, 'GET', '/v2/order?orderId=addr-1', { headers: auth })).body.recipient.address.countryIso2,
    ).toBe('DE');

    const newAddress = { line1: '5 Rue de Rivoli', postcode: '75001', city: 'Paris', countryIso2: 'fr' };
    const updated = await post(
      api.url,
      '/v2/order/update-recipient',
      { orderId: 'addr-1', user: { firstName: 'Grace', lastName: 'Hopper', address: newAddress } },
      auth,
    );
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.recipient).toMatchObject({
      firstName: 'Grace',
      address: { line1: '5 Rue de Rivoli', countryIso2: 'FR', country: 'France' },
    });
    const shipping = await post(
      api.url,
      '/v2/order/update-shipping',
      { orderId: 'addr-1', shipping: { method: 'express' } },
      auth,
    );
    expect(shipping.body.shipping).toEqual({ method: 'express', level: 'express', cost: 5 });
    const unknownLevel = await post(
      api.url,
      '/v2/order/update-shipping',
      { orderId: 'addr-1', shipping: { method: 'teleport' } },
      auth,
    );
    expect(unknownLevel.status).toBe(400);
    expect(unknownLevel.body).toMatchObject({ code: 'UNKNOWN_SHIPPING_LEVEL', errors: [{ path: 'shipping.method' }] });
    const updates = (await eventsOf(auth, '?orderId=addr-1&types=order.updated')).data;
    expect(updates.map((e: { data: { changed: string[] } }) => e.data.changed)).toEqual([['recipient'], ['shipping']]);

    expect(
      (await graphql(auth, 'mutation { confirmPayment(orderId: "addr-1") { orderId } }')).data.confirmPayment.orderId,
    ).toBe('addr-1');
    await waitFor(async () => (await lineOf(projectId)).status === 'sent printjob', 120_000, 'sent printjob');
    const job = JSON.parse(
      await readFile(path.join(api.config.dataDir, 'printjobs', 'addr-1', projectId, 'job.json'), 'utf8'),
    );
    expect(job.shipping).toMatchObject({
      name: 'Grace Hopper',
      line1: '5 Rue de Rivoli',
      postcode: '75001',
      city: 'Paris',
      countryIso2: 'FR',
    });
    expect(job.shippingLevel).toBe('express');

    const late = await post(
      api.url,
      '/v2/order/update-recipient',
      { orderId: 'addr-1', user: { address: newAddress } },
      auth,
    );
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({
      code: 'ACTION_NOT_AVAILABLE',
      detail: expect.stringContaining('"sent printjob"'),
    });
    expect(late.body.detail).toContain('update-recipient');
  }, 180_000);

  it('passes a cancel on to the printer that holds the job; after production started it is a 409 with the reason; tracking per parcel from printer events', async () => {
    const { auth } = await shopWith('Printer shop', '/printer', 'prod');
    const held = await editableProject(api, auth, { userId: 'events-5' });
    const started = await editableProject(api, auth, { userId: 'events-5' });
    expect((await post(api.url, '/v2/print', printBody('held-1', held), auth)).status).toBe(200);
    expect((await post(api.url, '/v2/print', printBody('started-1', started), auth)).status).toBe(200);
    await waitFor(
      async () => (await lineOf(held)).status === 'sent printjob' && (await lineOf(started)).status === 'sent printjob',
      180_000,
      'both sent',
    );

    const cancelled = await post(api.url, '/v2/order/cancel', { orderId: 'held-1' }, auth);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    const cancelFile = JSON.parse(
      await readFile(path.join(api.config.dataDir, 'printjobs', 'held-1', held, 'cancel.json'), 'utf8'),
    );
    expect(cancelFile.jobId).toBe((await lineOf(held)).printerJobId);
    // The flow that waited for the printer's events ended: a late printer event changes nothing.
    await sendPrinterEvent({ jobId: (await lineOf(held)).printerJobId, status: 'printing' });
    expect((await lineOf(held)).status).toBe('cancelled');

    const jobId = (await lineOf(started)).printerJobId;
    expect((await sendPrinterEvent({ jobId, status: 'printing' })).status).toBe(202);
    await waitFor(async () => (await lineOf(started)).status === 'printing', 10_000, 'printing');
    const refused = await post(api.url, '/v2/order/cancel', { orderId: 'started-1' }, auth);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'ACTION_NOT_AVAILABLE',
      detail: `cancel is not available for order started-1: project ${started} is "printing": the printer has started production`,
    });
    const viaGraphql = await graphql(
      auth,
      'mutation { setOrderStatus(orderId: "started-1", status: cancelled) { orderId } }',
    );
    expect(viaGraphql.errors[0].extensions.code).toBe('ACTION_NOT_AVAILABLE');
    expect((await lineOf(started)).status).toBe('printing');

    const parcels = [
      {
        carrier: 'UPS',
        trackingNumber: '1Z999AA10123456784',
        trackingUrl: 'https://carrier.example/ups/1Z999AA10123456784',
      },
      { carrier: 'UPS', trackingNumber: '1Z999AA10123456785' },
    ];
    expect((await sendPrinterEvent({ jobId, status: 'delivering', parcels })).status).toBe(202);
    await waitFor(async () => (await lineOf(started)).status === 'delivering', 10_000, 'delivering');
    const bad = await sendPrinterEvent({ jobId, status: 'delivering', parcels: [{ carrier: 7 }] });
    expect(bad.status).toBe(400);
    const view = (await request(api.url, 'GET', '/v2/order?orderId=started-1', { headers: auth })).body;
    expect(view.lines[0].tracking).toMatchObject({
      parcels: [{ ...parcels[0] }, { ...parcels[1], trackingUrl: null }],
      deliveredAt: null,
    });
    expect(view.lines[0].tracking.shippedAt).toBeGreaterThan(0);
    const gql = await graphql(
      auth,
      '{ order(orderId: "started-1") { lines { tracking parcels { carrier trackingNumber } shippedAt } } }',
    );
    expect(gql.data.order.lines[0]).toMatchObject({
      tracking: parcels[0].trackingUrl,
      parcels: [{ carrier: 'UPS' }, { trackingNumber: '1Z999AA10123456785' }],
    });
    // Project status keeps its one tracking URL.
    expect((await request(api.url, 'GET', `/v2/project/status?id=${started}`, { headers: auth })).body.tracking).toBe(
      parcels[0].trackingUrl,
    );
  }, 240_000);

  it('/v2/events pages through everything a shop missed while its receiver was down, and only its own', async () => {
    const { auth } = await shopWith('Down shop', '/down');
    const projectId = await editableProject(api, auth, { userId: 'events-6' });
    expect((await post(api.url, '/v2/print', printBody('down-1', projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineOf(projectId)).status === 'complete', 120_000, 'complete');
    await waitFor(
      async () =>
        (await (await api.orm()).em.fork().count(WebhookDelivery, { reference: 'down-1', status: 'failed' })) === 14,
      90_000,
      'every delivery given up',
    );

    const seen: any[] = [];
    let after: string | undefined;
    let pages = 0;
    do {
      const page = await eventsOf(auth, `?limit=5${after ? `&after=${after}` : ''}`);
      seen.push(...page.data);
      after = page.cursor;
      pages++;
    } while (after);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(14);
    const changes = seen.filter((e) => e.type === 'order.line.status_changed');
    expect(changes.map((e) => e.data.line.status)).toEqual(SANDBOX_WALK);
    expect(changes.map((e) => e.sequence)).toEqual(SANDBOX_WALK.map((_, i) => i + 1));
    // The same events the receiver was sent, with the same ids and bodies.
    const sent = receivedAt('/down');
    expect(new Set(sent.map((r) => r.body.id))).toEqual(new Set(seen.map((e) => e.id)));
    expect(sent.find((r) => r.body.id === seen[0].id)!.body).toEqual(seen[0]);

    // Catching up from the middle, by type.
    const rest = await eventsOf(auth, `?after=${seen[4].id}&types=order.line.shipped,order.line.delivered`);
    expect(rest.data.map((e: { type: string }) => e.type)).toEqual(['order.line.shipped', 'order.line.delivered']);
    const badType = await request(api.url, 'GET', '/v2/events?types=order.line.shipped,nope', { headers: auth });
    expect(badType.status).toBe(400);
    expect(badType.body.errors[0].path).toBe('types[1]');

    // Another client's event id and order are not found.
    const other = serviceHeader((await api.createClient('Other shop')).credentials.dev);
    expect((await request(api.url, 'GET', `/v2/events?after=${seen[0].id}`, { headers: other })).status).toBe(404);
    expect((await request(api.url, 'GET', '/v2/events', { headers: other })).body.data).toEqual([]);
    expect((await request(api.url, 'GET', '/v2/order?orderId=down-1', { headers: other })).status).toBe(404);
    expect((await post(api.url, '/v2/order/cancel', { orderId: 'down-1' }, other)).status).toBe(404);
    expect((await request(api.url, 'GET', '/v2/order/actions?orderId=down-1', { headers: other })).status).toBe(404);
  }, 180_000);

  it('lists orders newest first by status and creation time, keyset-paged, in REST and GraphQL alike', async () => {
    const { auth } = await shopWith('List shop', '/list');
    const projects = [];
    for (let i = 0; i < 3; i++) projects.push(await editableProject(api, auth, { userId: `lister-${i}` }));
    const before = new Date().toISOString();
    for (const [i, projectId] of projects.entries()) {
      expect(
        (await post(api.url, '/v2/print', { ...printBody(`list-${i}`, projectId), paymentPending: true }, auth)).status,
      ).toBe(200);
    }
    expect((await post(api.url, '/v2/order/cancel', { orderId: 'list-1' }, auth)).status).toBe(200);

    const first = await request(
      api.url,
      'GET',
      `/v2/order/list?status=waiting&limit=1&createdAfter=${encodeURIComponent(before)}`,
      { headers: auth },
    );
    expect(first.status).toBe(200);
    expect(first.body.data.map((o: { orderId: string }) => o.orderId)).toEqual(['list-2']);
    const second = await request(
      api.url,
      'GET',
      `/v2/order/list?status=waiting&limit=1&createdAfter=${encodeURIComponent(before)}&cursor=${first.body.cursor}`,
      { headers: auth },
    );
    expect(second.body.data.map((o: { orderId: string }) => o.orderId)).toEqual(['list-0']);
    expect(second.body.cursor).toBeUndefined();
    expect(
      (await request(api.url, 'GET', '/v2/order/list?status=cancelled', { headers: auth })).body.data.map(
        (o: { orderId: string }) => o.orderId,
      ),
    ).toEqual(['list-1']);
    expect(
      (await request(api.url, 'GET', `/v2/order/list?createdBefore=${encodeURIComponent(before)}`, { headers: auth }))
        .body.data,
    ).toEqual([]);
    const badDate = await request(api.url, 'GET', '/v2/order/list?createdAfter=yesterday', { headers: auth });
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors[0].path).toBe('createdAfter');
    expect((await request(api.url, 'GET', '/v2/order/list?limit=101', { headers: auth })).status).toBe(400);

    const gql = await graphql(
      auth,
      `{ orders(status: "waiting", first: 5) { edges { node { orderId actions { action available } } } } }`,
    );
    expect(gql.data.orders.edges.map((e: { node: { orderId: string } }) => e.node.orderId)).toEqual([
      'list-2',
      'list-0',
    ]);
    expect(gql.data.orders.edges[0].node.actions[0]).toEqual({ action: 'cancel', available: true });

    // The dashboard's own queries (Cancel, Change address and the events list read these) stay within the GraphQL limits.
    const dashboard = await readFile(new URL('../../../web/app/dashboard.js', import.meta.url), 'utf8');
    const queryOf = (name: string) => dashboard.match(new RegExp(`const ${name} = \`([^\`]*)\`;`))![1];
    const orders = await graphql(auth, queryOf('ORDERS'));
    expect(orders.errors, JSON.stringify(orders.errors)).toBeUndefined();
    expect(orders.data.orders.edges.find((e: any) => e.node.orderId === 'list-1').node.actions[0]).toMatchObject({
      action: 'cancel',
      available: false,
      reason: 'the order is already cancelled',
    });
    const events = await graphql(auth, queryOf('ORDER_EVENTS'), { orderId: 'list-1' });
    expect(events.data.events.events.map((e: { type: string }) => e.type)).toEqual([
      'order.line.status_changed',
      'order.line.status_changed',
      'order.cancelled',
    ]);
    const moved = await graphql(auth, queryOf('CHANGE_ADDRESS'), {
      orderId: 'list-0',
      user: { address: { line1: 'Kungsgatan 2', postcode: '111 43', countryIso2: 'SE' } },
      key: 'dash-1',
    });
    expect(moved.errors).toBeUndefined();
    expect((await graphql(auth, queryOf('CANCEL'), { orderId: 'list-0', key: 'dash-2' })).errors).toBeUndefined();
    expect((await lineOf(projects[0])).status).toBe('cancelled');
  }, 120_000);
});
