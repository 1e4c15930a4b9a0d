import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboard } from '../../examples/dashboard';
import { PhotobookGraphQLError } from '../../clients/typescript/src/index';
import type { IssuedClient } from '../../src/services/clients/client-admin';
import { startTestService, type TestService } from '../support/harness';
import { post, serviceHeader } from '../support/http';
import { editableProject, printBody } from '../support/print-fixtures';

/**
 * examples/dashboard.ts against the whole service on loopback: orders through the Relay
 * connection page by page, and status changes over graphql-ws while the sandbox printer works.
 */
describe('examples/dashboard.ts', () => {
  let api: TestService;
  let shop: IssuedClient;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '150ms' });
    shop = await api.createClient('Dashboard shop');
    auth = serviceHeader(shop.credentials.dev);
  });
  afterAll(() => api?.stop());

  /** An order; one `awaitingPayment` waits for `confirmPayment` in `waiting`, nothing rendered. */
  const placeOrder = async (orderId: string, { awaitingPayment = false } = {}) => {
    const projectId = await editableProject(api, auth, { userId: `owner-${orderId}` });
    const placed = await post(
      api.url,
      '/v2/print',
      { ...printBody(orderId, projectId), paymentPending: awaitingPayment },
      auth,
    );
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    return projectId;
  };

  it('lists every order through the connection, two a page, newest first', async () => {
    for (const orderId of ['board-1', 'board-2', 'board-3']) await placeOrder(orderId, { awaitingPayment: true });
    const lines: string[] = [];
    const { orders, pages } = await dashboard({
      baseUrl: api.url,
      credentials: shop.credentials.dev,
      pageSize: 2,
      log: (line) => lines.push(line),
    }).listOrders();
    expect(pages).toBe(2);
    expect(orders.map((order) => order.orderId)).toEqual(['board-3', 'board-2', 'board-1']);
    expect(lines).toHaveLength(3);
    // Another environment's credentials see none of them.
    expect(
      (await dashboard({ baseUrl: api.url, credentials: shop.credentials.prod, log: () => {} }).listOrders()).orders,
    ).toEqual([]);
  });

  it("follows an order's status changes over graphql-ws until it is delivered", async () => {
    const board = dashboard({ baseUrl: api.url, credentials: shop.credentials.dev, log: () => {} });
    const watching = board.watch({
      stopWhen: (change) => change.orderId === 'board-live' && change.status === 'complete',
    });
    const projectId = await placeOrder('board-live');
    const changes = (await watching).filter((change) => change.orderId === 'board-live');
    expect(changes.every((change) => change.projectId === projectId)).toBe(true);
    expect(changes.at(-1)?.status).toBe('complete');
    // In sequence order without repeats; the line's whole walk when the subscription was open in time.
    const sequences = changes.map((change) => change.sequence);
    expect(sequences).toEqual([...sequences].sort((a, b) => a - b));
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(changes.map((change) => change.status)).toContain('sent printjob');
  });

  it('stops watching when asked, and says why when the credentials are refused', async () => {
    const stop = new AbortController();
    const watching = dashboard({ baseUrl: api.url, credentials: shop.credentials.dev, log: () => {} }).watch({
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 300);
    expect(await watching).toEqual([]); // the earlier orders wait for payment: nothing changes meanwhile

    const refused = dashboard({
      baseUrl: api.url,
      credentials: { ...shop.credentials.dev, accessSecret: 'wrong' },
      log: () => {},
    });
    const listing = await refused.listOrders().catch((error) => error);
    expect(listing).toBeInstanceOf(PhotobookGraphQLError);
    expect(listing.code).toBe('UNAUTHENTICATED');
    await expect(refused.watch()).rejects.toThrow(/4403/);
  });
});
