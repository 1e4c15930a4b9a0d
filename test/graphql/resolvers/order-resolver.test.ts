import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderDocument, OrdersDocument, PrintOrderDocument } from '../../support/generated/graphql';
import { startTestService, type TestService } from '../../support/harness';
import { serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';

describe('orders over GraphQL', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService({ SANDBOX_PRINTER_STEP: '50ms' });
    auth = serviceHeader((await api.createClient('GraphQL orders')).credentials.dev);
  });
  afterAll(() => api?.stop());

  async function execute<R, V>(document: TypedDocumentNode<R, V>, variables: V) {
    const response = await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...auth },
      body: JSON.stringify({ query: print(document), variables }),
    });
    return (await response.json()) as { data?: R; errors?: { message: string; extensions?: Record<string, any> }[] };
  }

  it('prints an order with printOrder, follows it with order(), lists it with orders()', async () => {
    const projectId = await editableProject(api, auth, { email: 'grace@example.com' });
    const input = printBody('gql-1', projectId);
    const printed = await execute(PrintOrderDocument, { input });
    expect(printed.errors).toBeUndefined();
    expect(printed.data!.printOrder).toMatchObject({
      order: { orderId: 'gql-1', grandTotal: 37.99, currency: 'EUR', lines: [{ projectId, status: 'paid' }] },
    });
    // The same mutation again is the same order (idempotent like REST).
    const again = await execute(PrintOrderDocument, { input });
    expect(again.data!.printOrder.message).toBe(printed.data!.printOrder.message);

    await waitFor(
      async () => (await execute(OrderDocument, { orderId: 'gql-1' })).data?.order.lines[0].status === 'complete',
      90_000,
      'complete',
    );
    const { data } = await execute(OrderDocument, { orderId: 'gql-1' });
    expect(data!.order).toMatchObject({
      email: 'grace@example.com',
      shippingAddress: {
        line1: 'Unter den Linden 1',
        postcode: '10117',
        isoCode2: 'DE',
        isoCode3: 'DEU',
        country: 'Germany',
      },
      lines: [{ projectId, status: 'complete', displayStatus: 'Delivered', pageCount: 24, quantity: 1 }],
    });
    const orders = await execute(OrdersDocument, { email: 'GRACE@example.com', first: 10 });
    expect(orders.data!.orders.edges.map((e) => e.node.orderId)).toEqual(['gql-1']);
    expect(orders.data!.orders.pageInfo.hasNextPage).toBe(false);

    const missing = await execute(OrderDocument, { orderId: 'nope' });
    expect(missing.errors![0].extensions!.code).toBe('NOT_FOUND');
  });

  it('refuses a cursor it did not issue as bad input naming after, like the REST lists', async () => {
    const notOurs = ['not-a-cursor', Buffer.from(JSON.stringify([1, 2, 3])).toString('base64url')];
    for (const after of notOurs) {
      const { errors } = await execute(OrdersDocument, { first: 10, after });
      expect(errors![0].extensions).toMatchObject({
        code: 'UNKNOWN_CURSOR',
        errors: [{ path: 'after', message: 'is not a cursor this service issued' }],
      });
    }
  });
});
