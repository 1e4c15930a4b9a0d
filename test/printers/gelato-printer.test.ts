import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../src/outbound/safe-fetch';
import { GelatoPrinter } from '../../src/printers/gelato-printer';
import { PartnerApi, PartnerCallbackMalformed, PartnerCallbackRefused } from '../../src/printers/partner-api';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type PrintJob,
} from '../../src/printers/printer';
import { startPartnerServer, type PartnerReply, type PartnerRequest } from '../support/partner-server';

/**
 * Contract of the Gelato adapter against a local Gelato answering as its Order API v4 reference
 * says: create (https://dashboard.gelato.com/docs/orders/v4/create), search
 * (https://dashboard.gelato.com/docs/orders/v4/search), get, cancel with 409 once printed
 * (https://dashboard.gelato.com/docs/orders/v4/cancel), the statuses of
 * https://dashboard.gelato.com/docs/orders/order_details and the `order_status_updated` /
 * `order_item_tracking_code_updated` events of https://dashboard.gelato.com/docs/webhooks/.
 */

const API_KEY = 'gelato-key-0123';

const JOB: PrintJob = {
  jobKey: '6e2d1b63-3a8b-4b68-8e9f-2a1f9d2c3b11:1c9d3e54-88bb-4d2f-8b46-4a7b2e5f6c22',
  orderId: 'shop-2002',
  projectId: '1c9d3e54-88bb-4d2f-8b46-4a7b2e5f6c22',
  psp: 'gelato',
  quantity: 1,
  sku: 'softcover-square',
  pageCount: 28,
  partnerProducts: { gelato: 'photobooks-softcover_pf_200x200-mm-8x8-inch_pt_170-gsm-65lb-coated-silk_cl_4-4_ver' },
  coverPdfKey: 'c2/prod/orders/o2/p2/cover.pdf',
  pdfKey: 'c2/prod/orders/o2/p2/interior.pdf',
  manifestKey: 'c2/prod/orders/o2/p2/manifest.json',
  shippingLevel: 'express',
  shipping: {
    name: 'Paul van Smith',
    line1: '451 Clarkson Ave',
    postcode: '11203',
    city: 'New York',
    state: 'NY',
    countryIso2: 'US',
    phone: '123456789',
  },
  contactEmail: 'paul@example.com',
};

type Order = Record<string, any> & { id: string; orderReferenceId: string; fulfillmentStatus: string };

function fakeGelato() {
  const orders = new Map<string, Order>();
  const server = startPartnerServer((request: PartnerRequest): PartnerReply => {
    if (request.headers['x-api-key'] !== API_KEY) return { status: 401, body: { message: 'Unauthorized' } };
    const body = request.json as Record<string, any>;
    if (request.method === 'POST' && request.path === '/v4/orders') {
      const problems = [
        ...['orderReferenceId', 'customerReferenceId', 'currency']
          .filter((f) => !body?.[f])
          .map((f) => `${f} is required`),
        ...['firstName', 'lastName', 'addressLine1', 'city', 'postCode', 'country', 'email']
          .filter((f) => !body?.shippingAddress?.[f])
          .map((f) => `shippingAddress.${f} is required`),
        ...(body?.items ?? []).flatMap((item: Record<string, any>) =>
          !item.productUid || !item.quantity || !Array.isArray(item.files)
            ? ['items: productUid, quantity, files']
            : [],
        ),
      ];
      if (problems.length > 0) return { status: 400, body: { code: 'BAD_REQUEST', message: problems.join('; ') } };
      const id = `37365096-6628-4538-a9c2-${String(orders.size + 1).padStart(12, '0')}`;
      const order: Order = {
        id,
        orderType: body.orderType ?? 'order',
        orderReferenceId: body.orderReferenceId,
        customerReferenceId: body.customerReferenceId,
        fulfillmentStatus: body.orderType === 'draft' ? 'draft' : 'created',
        financialStatus: body.orderType === 'draft' ? 'draft' : 'paid',
        currency: body.currency,
        items: body.items.map((item: Record<string, unknown>, i: number) => ({
          id: `0549170c-bd7d-4d43-b7a1-34c855e6aef${i}`,
          fulfillmentStatus: 'created',
          ...item,
        })),
        shippingAddress: body.shippingAddress,
      };
      orders.set(id, order);
      return { status: 200, body: order };
    }
    if (request.method === 'POST' && request.path === '/v4/orders:search') {
      const found = [...orders.values()].filter(
        (o) => !body?.orderReferenceIds || body.orderReferenceIds.includes(o.orderReferenceId),
      );
      return { status: 200, body: { orders: found.map(({ items, shippingAddress, ...summary }) => summary) } };
    }
    const get = /^\/v4\/orders\/([^/:]+)$/.exec(request.path);
    if (request.method === 'GET' && get) {
      const order = orders.get(decodeURIComponent(get[1]));
      return order ? { status: 200, body: order } : { status: 404, body: { message: 'Order not found.' } };
    }
    const cancel = /^\/v4\/orders\/([^/:]+):cancel$/.exec(request.path);
    if (request.method === 'POST' && cancel) {
      const order = orders.get(decodeURIComponent(cancel[1]));
      if (!order) return { status: 404, body: { message: 'Order not found.' } };
      if (['printed', 'shipped', 'in_transit', 'delivered'].includes(order.fulfillmentStatus))
        return {
          status: 409,
          body: { message: "The order cannot be canceled, because at least one of the items is in 'printed' status." },
        };
      order.fulfillmentStatus = 'canceled';
      return { status: 200 };
    }
    return { status: 404, body: { message: 'not found' } };
  });
  return {
    ...server,
    orders,
    reset() {
      server.received.length = 0;
      orders.clear();
    },
  };
}

/** The webhooks page's `order_status_updated` example, for one of our orders. */
function statusEvent(order: Order, claims: Record<string, unknown> = {}) {
  return Buffer.from(
    JSON.stringify({
      id: 'os_5e5680ce494f6',
      event: 'order_status_updated',
      orderId: order.id,
      storeId: null,
      orderReferenceId: order.orderReferenceId,
      fulfillmentStatus: order.fulfillmentStatus,
      items: [],
      ...claims,
    }),
  );
}

describe('GelatoPrinter against the Order API v4 reference', () => {
  const gelato = fakeGelato();
  const fetch = createSafeFetch({ allowLoopback: true });
  let baseUrl: string;
  const printer = (options: { apiKey?: string; orderType?: 'order' | 'draft' } = {}) =>
    new GelatoPrinter({
      api: new PartnerApi({ partner: 'gelato', baseUrl, fetch }),
      apiKey: options.apiKey ?? API_KEY,
      orderType: options.orderType ?? 'order',
      fileUrl: (key) => `https://files.example/files/${key}?sig=1`,
    });

  beforeAll(async () => {
    baseUrl = await gelato.listen();
  });
  afterAll(() => gelato.close());
  beforeEach(() => gelato.reset());

  it('submits a two-file book with the mapped productUid, page count, shipment method and address', async () => {
    const { jobId } = await printer().submit(JOB);

    expect(gelato.orders.get(jobId)).toBeDefined();
    const create = gelato.received.find((r) => r.path === '/v4/orders')!;
    expect(create.headers['x-api-key']).toBe(API_KEY);
    expect(create.json).toMatchObject({
      orderType: 'order',
      orderReferenceId: JOB.jobKey,
      customerReferenceId: 'shop-2002',
      shipmentMethodUid: 'express',
      items: [
        {
          itemReferenceId: JOB.projectId,
          productUid: JOB.partnerProducts!.gelato,
          pageCount: 28,
          quantity: 1,
          files: [
            { type: 'default', url: 'https://files.example/files/c2/prod/orders/o2/p2/interior.pdf?sig=1' },
            { type: 'cover', url: 'https://files.example/files/c2/prod/orders/o2/p2/cover.pdf?sig=1' },
          ],
        },
      ],
      shippingAddress: {
        firstName: 'Paul',
        lastName: 'van Smith',
        addressLine1: '451 Clarkson Ave',
        city: 'New York',
        postCode: '11203',
        state: 'NY',
        country: 'US',
        email: 'paul@example.com',
        phone: '123456789',
      },
    });
  });

  it('a repeated submit finds the order by its reference and creates no second one; a dev account makes drafts', async () => {
    const first = await printer().submit(JOB);
    const again = await printer().submit(JOB);
    expect(again.jobId).toBe(first.jobId);
    expect(gelato.orders.size).toBe(1);

    gelato.reset();
    const { jobId } = await printer({ orderType: 'draft' }).submit(JOB);
    expect(gelato.orders.get(jobId)!.orderType).toBe('draft');
  });

  it("turns Gelato's errors into printer errors: 400 rejects, 401/429/503 are retried", async () => {
    const rejected = await printer()
      .submit({ ...JOB, contactEmail: undefined })
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(PrinterRejectedJob);
    expect((rejected as Error).message).toContain('shippingAddress.email is required');

    expect(
      await printer({ apiKey: 'revoked' })
        .submit(JOB)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(PrinterUnavailable);
    gelato.failNext({ status: 429, body: { message: 'Too Many Requests' } });
    expect(
      await printer()
        .submit(JOB)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(PrinterUnavailable);
    gelato.failNext({ status: 200, body: { orders: [] } }, { status: 503, body: { message: 'unavailable' } });
    expect(
      await printer()
        .submit(JOB)
        .catch((e: unknown) => e),
    ).toBeInstanceOf(PrinterUnavailable);
    expect(gelato.orders.size).toBe(0);

    await printer().submit(JOB);
    expect(gelato.orders.size).toBe(1);
  });

  it('a product with no Gelato productUid is refused before anything is sent', async () => {
    await expect(printer().submit({ ...JOB, partnerProducts: { prodigi: 'X' } })).rejects.toThrow(
      /partnerProducts\.gelato/,
    );
    expect(gelato.received).toHaveLength(0);
  });

  it('cancels before production; 409 once printed is a refusal', async () => {
    const { jobId } = await printer().submit(JOB);
    const ref = { jobId, jobKey: JOB.jobKey, orderId: JOB.orderId, projectId: JOB.projectId };
    await printer().cancel(ref);
    expect(gelato.orders.get(jobId)!.fulfillmentStatus).toBe('canceled');

    const other = `${JOB.jobKey}-b`;
    const { jobId: printed } = await printer().submit({ ...JOB, jobKey: other });
    gelato.orders.get(printed)!.fulfillmentStatus = 'printed';
    await expect(printer().cancel({ ...ref, jobId: printed, jobKey: other })).rejects.toBeInstanceOf(
      PrinterRefusedCancel,
    );
  });

  it('reads callbacks back from the API: statuses and the tracking of each package', async () => {
    const { jobId } = await printer().submit(JOB);
    const order = gelato.orders.get(jobId)!;

    const forged = statusEvent(order, { fulfillmentStatus: 'delivered' });
    expect(await printer().receiveCallback({ headers: {}, rawBody: forged })).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'accepted',
      parcels: [],
    });

    order.fulfillmentStatus = 'printed';
    expect((await printer().receiveCallback({ headers: {}, rawBody: statusEvent(order) })).status).toBe('printed');

    order.fulfillmentStatus = 'shipped';
    order.items[0].fulfillmentStatus = 'shipped';
    order.items[0].fulfillments = [
      {
        trackingCode: 'code123',
        trackingUrl: 'http://example.com/tracking?code=code123',
        shipmentMethodName: 'DHL Express Domestic BR',
        shipmentMethodUid: 'dhl_express_domestic_br',
      },
    ];
    const tracking = Buffer.from(
      JSON.stringify({
        id: 'os_5e5680ce494f7',
        event: 'order_item_tracking_code_updated',
        orderId: order.id,
        orderReferenceId: order.orderReferenceId,
        itemReferenceId: JOB.projectId,
        trackingCode: 'code123',
        trackingUrl: 'http://example.com/tracking?code=code123',
        shipmentMethodName: 'DHL Express Domestic BR',
      }),
    );
    expect(await printer().receiveCallback({ headers: {}, rawBody: tracking })).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'delivering',
      parcels: [
        {
          carrier: 'DHL Express Domestic BR',
          trackingNumber: 'code123',
          trackingUrl: 'http://example.com/tracking?code=code123',
        },
      ],
    });

    order.fulfillmentStatus = 'delivered';
    expect((await printer().receiveCallback({ headers: {}, rawBody: statusEvent(order) })).status).toBe('complete');
  });

  it('refuses a callback about an order the account does not have, or naming none', async () => {
    await expect(
      printer().receiveCallback({
        headers: {},
        rawBody: Buffer.from(
          JSON.stringify({ event: 'order_status_updated', orderId: 'a6a1f9ce-2bdd-4a9e-9f8d-0009df0e24d9' }),
        ),
      }),
    ).rejects.toBeInstanceOf(PartnerCallbackRefused);
    await expect(
      printer().receiveCallback({ headers: {}, rawBody: Buffer.from('{"event":"order_status_updated"}') }),
    ).rejects.toBeInstanceOf(PartnerCallbackMalformed);
  });
});
