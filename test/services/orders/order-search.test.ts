import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/harness';
import { graphql as graphqlAt } from '../../support/graphql';
import { post, request, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';
import { waitFor } from '../../support/wait';

/**
 * The order list's search (the dashboard's): by order id and by customer (name or e-mail, as the
 * order stores them), in REST and GraphQL alike, only ever among the caller's own orders; and a
 * client's recent webhook deliveries.
 */
describe('searching orders by id and customer, and listing webhook deliveries', () => {
  let api: TestService;
  let receiver: WebhookReceiver;
  let shop: Record<string, string>;
  let otherShop: Record<string, string>;

  const graphql = (auth: Record<string, string>, query: string, variables?: Record<string, unknown>) =>
    graphqlAt(api.url, auth, query, variables);
  const restIds = async (auth: Record<string, string>, query: string) => {
    const answer = await request(api.url, 'GET', `/v2/order/list?${query}`, { headers: auth });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data.map((o: { orderId: string }) => o.orderId);
  };
  const graphqlIds = async (auth: Record<string, string>, variables: Record<string, unknown>) => {
    const answer = await graphql(
      auth,
      `query ($orderId: String, $customer: String, $status: String) {
        orders(orderId: $orderId, customer: $customer, status: $status) { edges { node { orderId } } } }`,
      variables,
    );
    expect(answer.errors, JSON.stringify(answer.errors)).toBeUndefined();
    return answer.data.orders.edges.map((e: { node: { orderId: string } }) => e.node.orderId);
  };
  type Name = { firstName: string; lastName: string };
  const place = async (
    auth: Record<string, string>,
    orderId: string,
    owner: Record<string, unknown>,
    user: Name,
    quantity = 1,
  ) => {
    const project = await editableProject(api, auth, owner);
    const body = printBody(orderId, project, { quantity });
    Object.assign(body.user, user);
    const placed = await post(api.url, '/v2/print', { ...body, paymentPending: true }, auth);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
  };

  beforeAll(async () => {
    api = await startTestService({
      ALLOW_LOOPBACK_URLS: 'true',
      WEBHOOK_RETRY_SPACING: '100ms',
      WEBHOOK_RETRY_SCALE: '0.00001',
    });
    receiver = await startWebhookReceiver();
    shop = serviceHeader((await api.createClient('Search shop')).credentials.dev);
    otherShop = serviceHeader((await api.createClient('Other search shop')).credentials.dev);
    await place(shop, 'search-ada', { email: 'ada@example.com' }, { firstName: 'Ada', lastName: 'Lovelace' });
    await place(shop, 'search-grace', { email: 'grace@navy.example' }, { firstName: 'Grace', lastName: 'Hopper' }, 3);
    // Another shop's customer of the same name, and an order id only it has.
    await place(otherShop, 'other-ada', { userId: 'other-ada' }, { firstName: 'Ada', lastName: 'Lovelace' });
  }, 180_000);

  afterAll(async () => {
    await receiver?.close();
    await api?.stop();
  });

  it("finds an order by its id, and by words of its customer's name or e-mail in any case, in REST and GraphQL", async () => {
    for (const [query, expected] of [
      ['orderId=search-grace', ['search-grace']],
      ['customer=lovelace', ['search-ada']],
      ['customer=ADA%20love', ['search-ada']],
      ['customer=navy.example', ['search-grace']],
      ['customer=grace%20lovelace', []],
      ['customer=%25', []], // a LIKE wildcard is searched for as itself
      ['customer=a&status=waiting', ['search-grace', 'search-ada']],
      ['customer=hopper&orderId=search-ada', []],
    ] as const) {
      expect(await restIds(shop, query), query).toEqual(expected);
      expect(await graphqlIds(shop, Object.fromEntries(new URLSearchParams(query))), query).toEqual(expected);
    }
    const grace = await request(api.url, 'GET', '/v2/order/list?orderId=search-grace', { headers: shop });
    expect(grace.body.data[0].lines[0].quantity).toBe(3);
    expect(grace.body.data[0].recipient.address).toMatchObject({
      line1: 'Unter den Linden 1',
      postcode: '10117',
      city: 'Berlin',
    });
  }, 60_000);

  it("finds nothing of another shop's: its order id and its customer's name answer only the caller's own orders", async () => {
    expect(await restIds(shop, 'orderId=other-ada')).toEqual([]);
    expect(await graphqlIds(shop, { orderId: 'other-ada' })).toEqual([]);
    expect(await restIds(otherShop, 'orderId=search-ada')).toEqual([]);
    expect(await graphqlIds(otherShop, { orderId: 'search-ada' })).toEqual([]);
    expect(await restIds(otherShop, 'customer=lovelace')).toEqual(['other-ada']);
    expect(await graphqlIds(shop, { customer: 'lovelace' })).toEqual(['search-ada']);
  }, 60_000);

  it('refuses a blank or oversized search with a 400 naming the field', async () => {
    for (const [query, field] of [
      ['customer=%20%20', 'customer'],
      [`customer=${'x'.repeat(321)}`, 'customer'],
      ['customer=a%20b%20c%20d%20e%20f', 'customer'],
      ['orderId=', 'orderId'],
      [`orderId=${'o'.repeat(201)}`, 'orderId'],
    ] as const) {
      const rest = await request(api.url, 'GET', `/v2/order/list?${query}`, { headers: shop });
      expect(rest.status, query).toBe(400);
      expect(
        rest.body.errors.map((e: { path: string }) => e.path),
        query,
      ).toEqual([field]);

      const [name, value] = [...new URLSearchParams(query)][0];
      const answer = await graphql(shop, `query ($v: String) { orders(${name}: $v) { edges { cursor } } }`, {
        v: value,
      });
      // GraphQL answers a refused argument in `errors` (HTTP 200, as every execution error), with the same code and field.
      expect(answer.data, query).toBeNull();
      expect(answer.errors[0].extensions.code, query).toBe('VALIDATION_FAILED');
      expect(
        answer.errors[0].extensions.errors.map((e: { path: string }) => e.path),
        query,
      ).toEqual([field]);
    }
  }, 60_000);

  it("lists the client's recent webhook deliveries newest first with each attempt's outcome; another client sees none of them", async () => {
    await graphql(shop, 'mutation ($url: String!) { setWebhook(url: $url) { secret } }', {
      url: receiver.url('/search-shop'),
    });
    const sent = await graphql(shop, 'mutation { sendTestWebhook { id } }');
    const id = sent.data.sendTestWebhook.id;
    const deliveries = async (auth: Record<string, string>, variables: Record<string, unknown> = {}) =>
      graphql(
        auth,
        `query ($first: Int, $after: String) { webhookDeliveries(first: $first, after: $after) {
          edges { node { id event url status attempts { statusCode } } } pageInfo { hasNextPage endCursor } } }`,
        variables,
      );
    const statusOf = async () =>
      (await deliveries(shop)).data.webhookDeliveries.edges.find((e: any) => e.node.id === id)?.node.status;
    await waitFor(async () => (await statusOf()) === 'delivered', 20_000, 'test webhook delivered');
    const mine = (await deliveries(shop)).data.webhookDeliveries;
    const url = receiver.url('/search-shop');
    expect(mine.edges[0].node).toEqual({
      id,
      event: 'webhook.test',
      url,
      status: 'delivered',
      attempts: [{ statusCode: 200 }],
    });
    // The orders' own events went to no webhook (none was set when they were placed): the one page holds them all.
    expect(mine.pageInfo.hasNextPage).toBe(false);
    expect((await deliveries(otherShop)).data.webhookDeliveries.edges).toEqual([]);

    const paged = (await deliveries(shop, { first: 1 })).data.webhookDeliveries;
    expect(paged.edges.map((e: any) => e.node.id)).toEqual([id]);
    const badFirst = await deliveries(shop, { first: 101 });
    expect(badFirst.errors[0].extensions.errors.map((e: { path: string }) => e.path)).toEqual(['first']);
    const badCursor = await deliveries(shop, { after: 'not-a-cursor' });
    expect(badCursor.errors[0].extensions.code).toBe('UNKNOWN_CURSOR');
  }, 60_000);
});
