import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../src/outbound/safe-fetch';
import { PartnerApi, PartnerCallbackMalformed, PartnerCallbackRefused } from '../../src/printers/partner-api';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type PrintJob,
} from '../../src/printers/printer';
import { ProdigiPrinter } from '../../src/printers/prodigi-printer';
import { startPartnerServer, type PartnerRequest, type PartnerReply } from '../support/partner-server';

/**
 * Contract of the Prodigi adapter against a local Prodigi that answers as the Print API v4
 * reference says (https://www.prodigi.com/print-api/docs/reference/): `POST /v4.0/orders` with its
 * `outcome`s (`Created`, `AlreadyExists` for a repeated `idempotencyKey`, `ValidationFailed` 400),
 * `GET /v4.0/orders/{id}`, `POST /v4.0/orders/{id}/actions/cancel` (`Cancelled`, or `FailedToCancel`
 * once in production), the base error object `{statusText, statusCode}` for 401, and the CloudEvents
 * callback of its "Callbacks" section.
 */

const API_KEY = 'prodigi-sandbox-key';
const SHIPPING_METHODS = ['Budget', 'Standard', 'StandardPlus', 'Express', 'Overnight'];

const JOB: PrintJob = {
  jobKey: '5d1c0a52-2f7a-4a57-9d8e-1f0e8c1b2a01:0b8c2f43-77aa-4c1e-9a35-3f6a1d4e5b02',
  orderId: 'shop-1001',
  projectId: '0b8c2f43-77aa-4c1e-9a35-3f6a1d4e5b02',
  psp: 'prodigi',
  quantity: 2,
  sku: 'hardcover-a4',
  pageCount: 24,
  partnerProducts: { prodigi: 'BOOK-FE-A4-P-HARD-G', gelato: 'photobooks-hardcover_pf_a4' },
  coverPdfKey: 'c1/prod/orders/o1/p1/cover.pdf',
  pdfKey: 'c1/prod/orders/o1/p1/interior.pdf',
  manifestKey: 'c1/prod/orders/o1/p1/manifest.json',
  shippingLevel: 'express',
  shipping: {
    name: 'Ada Lovelace',
    line1: '14 Test Place',
    line2: 'Flat 2',
    postcode: 'SW1A 1AA',
    city: 'London',
    countryIso2: 'GB',
    phone: '+44 20 1234',
  },
  contactEmail: 'ada@example.com',
};

type Order = Record<string, unknown> & {
  id: string;
  status: { stage: string; issues: unknown[]; details: Record<string, string> };
  shipments: unknown[];
};

/** A Prodigi sandbox account on loopback, with the reference's behaviour. */
function fakeProdigi() {
  const orders = new Map<string, Order>();
  const byIdempotencyKey = new Map<string, string>();
  const notStarted = () => ({
    downloadAssets: 'NotStarted',
    printReadyAssetsPrepared: 'NotStarted',
    allocateProductionLocation: 'NotStarted',
    inProduction: 'NotStarted',
    shipping: 'NotStarted',
  });
  const server = startPartnerServer((request: PartnerRequest): PartnerReply => {
    if (request.headers['x-api-key'] !== API_KEY)
      return { status: 401, body: { statusText: 'Unauthorised', statusCode: 401, data: {} } };
    const path = request.path.replace(/^\/v4\.0/, '');
    if (request.method === 'POST' && path === '/orders') {
      const body = request.json as Record<string, any>;
      const problems = validationProblems(body);
      if (problems.length > 0)
        return { status: 400, body: { outcome: 'ValidationFailed', statusText: problems.join('; '), statusCode: 400 } };
      const known = body.idempotencyKey && byIdempotencyKey.get(body.idempotencyKey);
      if (known) return { status: 200, body: { outcome: 'AlreadyExists', order: orders.get(known) } };
      const id = `ord_${840797 + orders.size}`;
      const order: Order = {
        id,
        created: '2026-11-27T14:40:05.12Z',
        callbackUrl: body.callbackUrl ?? null,
        merchantReference: body.merchantReference,
        shippingMethod: body.shippingMethod,
        idempotencyKey: body.idempotencyKey ?? null,
        status: { stage: 'InProgress', issues: [], details: notStarted() },
        charges: [],
        shipments: [],
        recipient: body.recipient,
        items: body.items.map((item: Record<string, unknown>, i: number) => ({
          id: `ori_${926887 + i}`,
          status: 'NotYetDownloaded',
          ...item,
        })),
      };
      orders.set(id, order);
      if (body.idempotencyKey) byIdempotencyKey.set(body.idempotencyKey, id);
      return { status: 200, body: { outcome: 'Created', order } };
    }
    const get = /^\/orders\/([^/]+)$/.exec(path);
    if (request.method === 'GET' && get) {
      const order = orders.get(decodeURIComponent(get[1]));
      return order
        ? { status: 200, body: { outcome: 'Ok', order } }
        : { status: 404, body: { outcome: 'EntityNotFound', statusText: 'not found', statusCode: 404 } };
    }
    const cancel = /^\/orders\/([^/]+)\/actions\/cancel$/.exec(path);
    if (request.method === 'POST' && cancel) {
      const order = orders.get(decodeURIComponent(cancel[1]));
      if (!order) return { status: 404, body: { outcome: 'EntityNotFound', statusCode: 404 } };
      if (order.status.details.inProduction !== 'NotStarted')
        return { status: 200, body: { outcome: 'FailedToCancel', order } };
      order.status.stage = 'Cancelled';
      return { status: 200, body: { outcome: 'Cancelled', order } };
    }
    return { status: 404, body: { outcome: 'EndpointDoesNotExist', statusCode: 404 } };
  });
  return {
    ...server,
    orders,
    reset() {
      server.received.length = 0;
      orders.clear();
      byIdempotencyKey.clear();
    },
  };
}

function validationProblems(body: Record<string, any>): string[] {
  const problems: string[] = [];
  if (!SHIPPING_METHODS.includes(body?.shippingMethod)) problems.push('shippingMethod is invalid');
  const address = body?.recipient?.address ?? {};
  if (!body?.recipient?.name) problems.push('recipient.name is required');
  for (const field of ['line1', 'postalOrZipCode', 'countryCode', 'townOrCity'])
    if (!address[field]) problems.push(`recipient.address.${field} is required`);
  if (!Array.isArray(body?.items) || body.items.length === 0) problems.push('items is required');
  for (const item of body?.items ?? []) {
    for (const field of ['sku', 'copies', 'sizing']) if (!item[field]) problems.push(`items.${field} is required`);
    for (const asset of item.assets ?? [])
      if (!asset.printArea || !asset.url) problems.push('items.assets needs printArea and url');
  }
  return problems;
}

/** The reference's sample callback, for one of our orders. */
function cloudEvent(order: Record<string, unknown>, type = 'com.prodigi.order.status.stage.changed#InProgress') {
  return Buffer.from(
    JSON.stringify({
      specversion: '1.0',
      type,
      source: 'https://api.sandbox.prodigi.com/v4.0/Orders/',
      id: 'evt_305174',
      time: '2026-11-27T11:51:01.55Z',
      datacontenttype: 'application/json',
      data: { order },
      subject: order.id,
    }),
  );
}

describe('ProdigiPrinter against the Print API v4 reference', () => {
  const prodigi = fakeProdigi();
  const fetch = createSafeFetch({ allowLoopback: true });
  let baseUrl: string;
  const printer = (apiKey = API_KEY) =>
    new ProdigiPrinter({
      api: new PartnerApi({ partner: 'prodigi', baseUrl, fetch }),
      apiKey,
      fileUrl: (key) => `https://files.example/files/${key}?expires=1&sig=abc`,
      callbackUrl: 'https://photobook.example/v2/printers/prodigi/callbacks/tok_123',
    });

  beforeAll(async () => {
    baseUrl = `${await prodigi.listen()}/v4.0`;
  });
  afterAll(() => prodigi.close());
  beforeEach(() => prodigi.reset());

  it('submits a two-file book with the mapped SKU, shipping method and recipient', async () => {
    const { jobId } = await printer().submit(JOB);

    expect(jobId).toMatch(/^ord_\d+$/);
    const [request] = prodigi.received;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v4.0/orders');
    expect(request.headers['x-api-key']).toBe(API_KEY);
    expect(request.json).toMatchObject({
      merchantReference: JOB.jobKey,
      idempotencyKey: JOB.jobKey,
      callbackUrl: 'https://photobook.example/v2/printers/prodigi/callbacks/tok_123',
      shippingMethod: 'Express',
      recipient: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phoneNumber: '+44 20 1234',
        address: {
          line1: '14 Test Place',
          line2: 'Flat 2',
          postalOrZipCode: 'SW1A 1AA',
          countryCode: 'GB',
          townOrCity: 'London',
        },
      },
      items: [
        {
          sku: 'BOOK-FE-A4-P-HARD-G',
          copies: 2,
          sizing: 'fillPrintArea',
          assets: [
            {
              printArea: 'default',
              url: 'https://files.example/files/c1/prod/orders/o1/p1/interior.pdf?expires=1&sig=abc',
              pageCount: 24,
            },
            { printArea: 'cover', url: 'https://files.example/files/c1/prod/orders/o1/p1/cover.pdf?expires=1&sig=abc' },
          ],
        },
      ],
    });
  });

  it('a repeated submit is the same order: Prodigi answers AlreadyExists for the idempotency key', async () => {
    const first = await printer().submit(JOB);
    const again = await printer().submit(JOB);

    expect(again.jobId).toBe(first.jobId);
    expect(prodigi.orders.size).toBe(1);
  });

  it('a product with no Prodigi SKU is refused before anything is sent', async () => {
    const unmapped = { ...JOB, partnerProducts: { gelato: 'x' } };

    const error = await printer()
      .submit(unmapped)
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(PrinterRejectedJob);
    expect((error as Error).message).toContain('products[].partnerProducts.prodigi');
    expect(prodigi.received).toHaveLength(0);
  });

  it("turns Prodigi's errors into the printer errors: 400 rejects, 401/429/5xx are retried and then succeed once", async () => {
    const invalid = { ...JOB, shipping: { ...JOB.shipping, city: undefined } };
    const rejected = await printer()
      .submit(invalid)
      .catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(PrinterRejectedJob);
    expect((rejected as PrinterRejectedJob).status).toBe(400);
    expect((rejected as Error).message).toContain('recipient.address.townOrCity is required');

    const unauthorised = await printer('wrong-key')
      .submit(JOB)
      .catch((e: unknown) => e);
    expect(unauthorised).toBeInstanceOf(PrinterUnavailable);
    expect((unauthorised as PrinterUnavailable).status).toBe(401);

    prodigi.failNext(
      { status: 429, body: { statusText: 'Too many requests', statusCode: 429 }, headers: { 'retry-after': '7' } },
      { status: 500, body: { outcome: 'InternalServerError', statusCode: 500 } },
    );
    const limited = await printer()
      .submit(JOB)
      .catch((e: unknown) => e);
    expect(limited).toBeInstanceOf(PrinterUnavailable);
    expect((limited as PrinterUnavailable).retryAfterSeconds).toBe(7);
    const broken = await printer()
      .submit(JOB)
      .catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(PrinterUnavailable);
    expect((broken as PrinterUnavailable).status).toBe(500);

    const { jobId } = await printer().submit(JOB);
    expect(jobId).toMatch(/^ord_/);
    expect(prodigi.orders.size).toBe(1);
  });

  it('cancels before production, and is refused once the order is in production', async () => {
    const { jobId } = await printer().submit(JOB);
    const ref = { jobId, jobKey: JOB.jobKey, orderId: JOB.orderId, projectId: JOB.projectId };

    await printer().cancel(ref);
    expect(prodigi.orders.get(jobId)!.status.stage).toBe('Cancelled');
    expect(prodigi.received.at(-1)!.path).toBe(`/v4.0/orders/${jobId}/actions/cancel`);

    const second = JOB.jobKey.replace(/.$/, '9');
    const { jobId: started } = await printer().submit({ ...JOB, jobKey: second });
    prodigi.orders.get(started)!.status.details.inProduction = 'InProgress';
    await expect(printer().cancel({ ...ref, jobId: started, jobKey: second })).rejects.toBeInstanceOf(
      PrinterRefusedCancel,
    );
  });

  it('reads a callback back from the API: statuses and shipments as Prodigi has them, not as the body claims', async () => {
    const { jobId } = await printer().submit(JOB);
    const order = prodigi.orders.get(jobId)!;

    // Callback bodies are not signed: a forged "Complete with a parcel" changes nothing Prodigi does not say.
    const forged = cloudEvent({ ...order, status: { stage: 'Complete' }, shipments: [{ tracking: { number: 'X' } }] });
    expect(await printer().receiveCallback({ headers: {}, rawBody: forged })).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'accepted',
      parcels: [],
    });

    order.status.details = { ...order.status.details, downloadAssets: 'Complete', inProduction: 'InProgress' };
    expect((await printer().receiveCallback({ headers: {}, rawBody: cloudEvent(order) })).status).toBe('printing');

    order.status.details.shipping = 'InProgress';
    order.shipments = [
      {
        id: 'shp_456456',
        status: 'Shipped',
        carrier: { name: 'Royal Mail', service: 'Tracked 48' },
        tracking: {
          url: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
          number: 'AB123456789GB',
        },
        dispatchDate: '2026-11-28T09:00:00Z',
        items: [{ itemId: 'ori_926887' }],
      },
    ];
    order.status.stage = 'Complete';
    const shipped = await printer().receiveCallback({
      headers: {},
      rawBody: cloudEvent(order, 'com.prodigi.order.status.stage.changed#Complete'),
    });
    expect(shipped).toEqual({
      jobId,
      jobKey: JOB.jobKey,
      status: 'delivering',
      parcels: [
        {
          carrier: 'Royal Mail Tracked 48',
          trackingNumber: 'AB123456789GB',
          trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
        },
      ],
    });
  });

  it('refuses a callback about an order this account does not have, and one that names no order', async () => {
    await expect(
      printer().receiveCallback({ headers: {}, rawBody: cloudEvent({ id: 'ord_999999' }) }),
    ).rejects.toBeInstanceOf(PartnerCallbackRefused);
    await expect(
      printer().receiveCallback({ headers: {}, rawBody: Buffer.from('{"subject":"x"}') }),
    ).rejects.toBeInstanceOf(PartnerCallbackMalformed);
    await expect(printer().receiveCallback({ headers: {}, rawBody: Buffer.from('not json') })).rejects.toBeInstanceOf(
      PartnerCallbackMalformed,
    );
  });
});
