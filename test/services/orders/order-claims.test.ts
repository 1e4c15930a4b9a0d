import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Order, OrderLine } from '../../../src/db/entities';
import { startTestService, type TestService } from '../../support/harness';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';
import { graphql as graphqlAt } from '../../support/graphql';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The sandbox printer's walk of a paid line, as every order (and every remake) takes it. */
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
 * Claims and remakes over real HTTP on the sandbox printer (docs/api.md, Claims and remakes): an
 * order walked to delivery is claimed, and its remake prints the same bytes, walks to `complete`,
 * and is the one remake whatever the retries; claims outside the window, on undelivered lines and
 * on another tenant's order are refused.
 */
describe('claims and remakes', () => {
  let api: TestService;
  let receiver: WebhookReceiver;
  let auth: Record<string, string>;
  let live: Record<string, string>;
  let other: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ ALLOW_LOOPBACK_URLS: 'true', SANDBOX_PRINTER_STEP: '100ms' });
    receiver = await startWebhookReceiver(() => 200);
    const shop = await api.createClient('Claims shop');
    auth = serviceHeader(shop.credentials.dev);
    live = serviceHeader(shop.credentials.prod);
    other = serviceHeader((await api.createClient('Another shop')).credentials.dev);
    const set = await graphqlAt(api.url, auth, 'mutation ($url: String!) { setWebhook(url: $url) { secret } }', {
      url: receiver.url('/claims'),
    });
    expect(set.data.setWebhook.secret).toMatch(/^whsec_/);
  });
  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  const em = async () => (await api.orm()).em.fork();
  const linesOf = async (orderId: string) =>
    (await em()).find(
      OrderLine,
      { order: { orderId } },
      { populate: ['order', 'project'], orderBy: { position: 'asc' } },
    );
  const lineStatus = async (orderId: string) => (await linesOf(orderId))[0]?.status;
  const claim = (body: Record<string, unknown>, headers: Record<string, string> = auth) =>
    post(api.url, '/v2/order/claim', body, headers);
  const order = async (orderId: string) =>
    (await request(api.url, 'GET', `/v2/order?orderId=${encodeURIComponent(orderId)}`, { headers: auth })).body;
  const sha256Of = async (url: string) => {
    const response = await fetch(url);
    expect(response.status).toBe(200);
    return createHash('sha256')
      .update(Buffer.from(await response.arrayBuffer()))
      .digest('hex');
  };
  const filesOf = async (orderId: string) => {
    const { printFiles } = (await order(orderId)).lines[0];
    return {
      cover: await sha256Of(printFiles.coverPdfUrl),
      interior: await sha256Of(printFiles.interiorPdfUrl),
      manifest: await sha256Of(printFiles.manifestUrl),
    };
  };
  const eventsOf = async (orderId: string) =>
    (await request(api.url, 'GET', `/v2/events?orderId=${encodeURIComponent(orderId)}`, { headers: auth })).body.data;
  const delivered = async (orderId: string, userId: string) => {
    const projectId = await editableProject(api, auth, { userId });
    expect((await post(api.url, '/v2/print', printBody(orderId, projectId), auth)).status).toBe(200);
    await waitFor(async () => (await lineStatus(orderId)) === 'complete', 120_000, `${orderId} complete`);
    return projectId;
  };

  it('remakes a delivered line: the same file bytes with nothing rendered, at no charge, walked to complete, one remake per key', async () => {
    const projectId = await delivered('cl-1', 'claims-1');
    const before = await order('cl-1');
    const deliveredAt = before.lines[0].tracking.deliveredAt;
    expect(before.actions.find((a: { action: string }) => a.action === 'claim')).toEqual({
      action: 'claim',
      available: true,
      until: deliveredAt + 30 * DAY_MS,
    });
    expect(before).toMatchObject({ remakeOf: null, claim: null, remakes: [] });

    const body = {
      orderId: 'cl-1',
      reason: 'damaged',
      note: 'The spine arrived cracked',
      photos: ['https://shop.example.com/evidence/spine.jpg'],
    };
    const first = await claim(body, { ...auth, 'idempotency-key': 'claim-cl-1' });
    expect(first.status).toBe(200);
    const remakeId: string = first.body.orderId;
    expect(remakeId).toMatch(/^rmk_[0-9A-Za-z]{20}$/);
    expect(first.body).toMatchObject({
      remakeOf: 'cl-1',
      remakes: [],
      claim: {
        reason: 'damaged',
        note: 'The spine arrived cracked',
        photos: ['https://shop.example.com/evidence/spine.jpg'],
        projectIds: [projectId],
      },
      subTotal: 0,
      grandTotal: 0,
      shipping: { method: 'standard', level: before.shipping.level, cost: 0 },
      coupon: null,
      recipient: before.recipient,
      lines: [{ projectId, lineItemTotal: 0, quantity: 1, sku: before.lines[0].sku, status: 'paid' }],
    });
    expect(first.body.lines[0].printFiles).toBeDefined();

    // The remake prints the original's files, byte for byte: the same stored files, nothing of its own.
    const [original] = await linesOf('cl-1');
    const [remade] = await linesOf(remakeId);
    expect([remade.pdfKey, remade.coverPdfKey, remade.manifestKey, remade.pageCount]).toEqual([
      original.pdfKey,
      original.coverPdfKey,
      original.manifestKey,
      original.pageCount,
    ]);
    expect(await filesOf(remakeId)).toEqual(await filesOf('cl-1'));

    // It goes to the (sandbox) printer like any order and walks to complete.
    await waitFor(async () => (await lineStatus(remakeId)) === 'complete', 60_000, 'remake complete');
    const folderOf = async (orderId: string) => {
      const { client, id } = await (await em()).findOneOrFail(Order, { orderId });
      return path.join(api.config.dataDir, 'files', client.id, 'dev', 'orders', id);
    };
    // The original's pages and PDFs were rendered under its own folder; nothing ever was under the remake's.
    expect(existsSync(await folderOf('cl-1'))).toBe(true);
    expect(existsSync(await folderOf(remakeId))).toBe(false);
    expect(await filesOf(remakeId)).toEqual(await filesOf('cl-1'));

    // The original lists it; a second claim of the line is refused, naming the remake.
    const after = await order('cl-1');
    expect(after.remakes).toEqual([remakeId]);
    expect(after.actions.find((a: { action: string }) => a.action === 'claim')).toEqual({
      action: 'claim',
      available: false,
      reason: `project ${projectId} was claimed already: its remake is order ${remakeId} (claim the remake instead)`,
    });

    // The same claim with the same key: the same remake, answered again, nothing new written.
    const again = await claim(body, { ...auth, 'idempotency-key': 'claim-cl-1' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.orderId).toBe(remakeId);
    // Without the key, the retry is refused rather than a second remake made.
    const unkeyed = await claim(body);
    expect(unkeyed.status).toBe(409);
    expect(unkeyed.body).toMatchObject({ code: 'ACTION_NOT_AVAILABLE' });
    expect(unkeyed.body.detail).toContain(`its remake is order ${remakeId}`);
    expect(await (await em()).count(Order, { remakeOf: { orderId: 'cl-1' } })).toBe(1);

    // Its own events: the claim on the original, the remake and its whole walk on the remake.
    const originalEvents = await eventsOf('cl-1');
    const claimed = originalEvents.find((e: { type: string }) => e.type === 'order.claim.created');
    expect(claimed.data).toMatchObject({
      orderId: 'cl-1',
      remakeOrderId: remakeId,
      claim: { reason: 'damaged', projectIds: [projectId] },
      lines: [{ projectId, status: 'complete', sequence: 12 }],
    });
    const remakeEvents = await eventsOf(remakeId);
    expect(remakeEvents[0]).toMatchObject({ type: 'order.line.status_changed', sequence: 1 });
    expect(remakeEvents.find((e: { type: string }) => e.type === 'order.remake.created').data).toMatchObject({
      orderId: remakeId,
      remakeOf: 'cl-1',
      claim: { reason: 'damaged' },
      lines: [{ projectId, status: 'paid', sequence: 1 }],
    });
    expect(
      remakeEvents
        .filter((e: { type: string }) => e.type === 'order.line.status_changed')
        .map((e: { data: { line: { status: string } } }) => e.data.line.status),
    ).toEqual(SANDBOX_WALK);
    // Delivered to the shop's webhook as every order event is.
    await waitFor(
      async () =>
        ['order.claim.created', 'order.remake.created'].every((type) =>
          receiver.received.some((r) => r.path === '/claims' && r.body.type === type),
        ),
      30_000,
      'claim webhooks',
    );

    // GraphQL sees the same link both ways.
    const gql = await graphqlAt(
      api.url,
      auth,
      `query ($a: String!, $b: String!) {
        original: order(orderId: $a) { remakes remakeOf actions { action available until } }
        remake: order(orderId: $b) { remakeOf grandTotal claim { reason note photos projectIds } }
      }`,
      { a: 'cl-1', b: remakeId },
    );
    expect(gql.errors).toBeUndefined();
    expect(gql.data.original).toMatchObject({ remakes: [remakeId], remakeOf: null });
    expect(gql.data.remake).toMatchObject({
      remakeOf: 'cl-1',
      grandTotal: 0,
      claim: { reason: 'damaged', note: 'The spine arrived cracked', projectIds: [projectId] },
    });
    // The delivered remake can be claimed in turn (GraphQL claimOrder), and the answer is its own remake.
    const gqlClaim = await graphqlAt(
      api.url,
      auth,
      'mutation ($id: String!) { claimOrder(orderId: $id, reason: lost, idempotencyKey: "gql-claim-1") { orderId remakeOf lines { status lineItemTotal } } }',
      { id: remakeId },
    );
    expect(gqlClaim.errors).toBeUndefined();
    expect(gqlClaim.data.claimOrder).toMatchObject({ remakeOf: remakeId, lines: [{ lineItemTotal: 0 }] });
    expect(gqlClaim.data.claimOrder.orderId).toMatch(/^rmk_/);
  }, 240_000);

  it('refuses a claim of a line not yet shipped: 409 ACTION_NOT_AVAILABLE with the reason, nothing written', async () => {
    const projectId = await editableProject(api, auth, { userId: 'claims-2' });
    expect(
      (await post(api.url, '/v2/print', { ...printBody('cl-waiting', projectId), paymentPending: true }, auth)).status,
    ).toBe(200);
    const refused = await claim({ orderId: 'cl-waiting', reason: 'misprint', projectIds: [projectId] });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'ACTION_NOT_AVAILABLE',
      detail: `claim is not available for order cl-waiting: project ${projectId} is "waiting": it has not been shipped; a claim can be made from "delivering" on`,
    });
    const actions = (await request(api.url, 'GET', '/v2/order/actions?orderId=cl-waiting', { headers: auth })).body;
    expect(actions.actions.find((a: { action: string }) => a.action === 'claim')).toMatchObject({
      available: false,
      reason: expect.stringContaining('has not been shipped'),
    });
    expect(await (await em()).count(Order, { remakeOf: { orderId: 'cl-waiting' } })).toBe(0);
  }, 120_000);

  it('refuses a claim after the window: 409 naming when it closed', async () => {
    const projectId = await delivered('cl-late', 'claims-3');
    // 31 days pass: the line was delivered (and shipped) before the 30-day window.
    const gone = new Date(Date.now() - 31 * DAY_MS);
    await (await em()).nativeUpdate(OrderLine, { project: projectId }, { deliveredAt: gone, shippedAt: gone });
    const refused = await claim({ orderId: 'cl-late', reason: 'damaged' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('ACTION_NOT_AVAILABLE');
    expect(refused.body.detail).toBe(
      `claim is not available for order cl-late: project ${projectId} is "complete": the claim window closed at ${new Date(gone.getTime() + 30 * DAY_MS).toISOString()} (30 days after delivery)`,
    );
    expect(await (await em()).count(Order, { remakeOf: { orderId: 'cl-late' } })).toBe(0);
  }, 120_000);

  it('makes one remake of two claims sent at the same moment without a key: the other is a 409 naming it', async () => {
    await delivered('cl-race', 'claims-4');
    const answers = await Promise.all([
      claim({ orderId: 'cl-race', reason: 'misprint' }),
      claim({ orderId: 'cl-race', reason: 'damaged' }),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    const made = answers.find((a) => a.status === 200)!.body.orderId;
    expect(answers.find((a) => a.status === 409)!.body.detail).toContain(`its remake is order ${made}`);
    expect(await (await em()).count(Order, { remakeOf: { orderId: 'cl-race' } })).toBe(1);
    expect((await order('cl-race')).remakes).toEqual([made]);
  }, 120_000);

  it("answers 404 for another tenant's order, and 4xx naming the field for bad input", async () => {
    // cl-1 is this shop's sandbox order: another shop, and this shop's live environment, do not see it.
    for (const headers of [other, live]) {
      const response = await claim({ orderId: 'cl-1', reason: 'damaged' }, headers);
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({ code: 'NOT_FOUND', errors: [{ path: 'orderId' }] });
    }
    const gql = await graphqlAt(
      api.url,
      other,
      'mutation { claimOrder(orderId: "cl-1", reason: damaged) { orderId } }',
    );
    expect(gql.errors[0].extensions.code).toBe('NOT_FOUND');

    const bad = async (body: Record<string, unknown>, status: number, field: string) => {
      const response = await claim(body);
      expect(response.status, JSON.stringify(response.body)).toBe(status);
      expect(response.body.errors.map((e: { path: string }) => e.path)).toContain(field);
    };
    await bad({ orderId: 'cl-1', reason: 'broken' }, 400, 'reason');
    await bad({ orderId: 'cl-1' }, 400, 'reason');
    await bad({ orderId: 'cl-1', reason: 'damaged', photos: ['ftp://shop.example.com/a.jpg'] }, 400, 'photos[0]');
    await bad({ orderId: 'cl-1', reason: 'damaged', photos: ['https://'] }, 400, 'photos[0]');
    await bad({ orderId: 'cl-1', reason: 'damaged', note: 'x'.repeat(2001) }, 400, 'note');
    await bad({ orderId: 'cl-1', reason: 'damaged', projectIds: [] }, 400, 'projectIds');
    await bad({ orderId: 'cl-1', reason: 'damaged', projectIds: ['p-notInThisOrder'] }, 404, 'projectIds[0]');
    const gqlBad = await graphqlAt(
      api.url,
      auth,
      'mutation { claimOrder(orderId: "cl-1", reason: damaged, photos: ["javascript:alert(1)"]) { orderId } }',
    );
    expect(gqlBad.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED' });
  }, 60_000);
});
