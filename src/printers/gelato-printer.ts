import { DEFAULT_PRINT_OUTPUT, type PrintOutput } from '../domain/print-output';
import type { PrinterEventStatus } from '../domain/order-status';
import type { Parcel } from '../domain/parcel';
import {
  clip,
  objectOf,
  type PartnerApi,
  PartnerCallbackMalformed,
  PartnerCallbackRefused,
  parcelOf,
  partnerProductOf,
  stringOf,
  type PartnerCallback,
  type PartnerJobState,
  type PartnerPrinter,
} from './partner-api';
import {
  PrinterRefusedCancel,
  PrinterUnavailable,
  type PrintJob,
  type PrintJobRef,
  type PrintSubmission,
} from './printer';

/**
 * Gelato Order API v4 (https://dashboard.gelato.com/docs/orders/v4/create), `https://order.gelatoapis.com`,
 * `X-API-KEY` on every call. Gelato has no sandbox host: a `dev` account's orders are created as
 * `orderType: "draft"`, which Gelato neither produces nor charges.
 *
 * - Submit: `POST /v4/orders` with our job key as `orderReferenceId`. Gelato does not deduplicate
 *   on it, so a submit first asks `POST /v4/orders:search` for orders of that reference
 *   (https://dashboard.gelato.com/docs/orders/v4/search) and answers the one found: a retried
 *   submit never creates a second order. The book is one item of the mapped `productUid` with its
 *   `pageCount` and two files, the interior (`default`) and the cover sheet (`cover`), signed URLs of
 *   ours Gelato downloads.
 * - Cancel: `POST /v4/orders/{id}:cancel`; 409 once an item is printed
 *   (https://dashboard.gelato.com/docs/orders/v4/cancel).
 * - Callbacks: the `order_status_updated` and `order_item_tracking_code_updated` events of the
 *   webhook the shop sets in Gelato's dashboard (https://dashboard.gelato.com/docs/webhooks/).
 *   Gelato documents no signature, so a callback is a hint: its URL carries the account's secret
 *   token (checked by the route) and the order is read back with `GET /v4/orders/{id}`; only
 *   Gelato's API answer moves the order.
 */

export interface GelatoPrinterOptions {
  api: PartnerApi;
  /** What the files are rendered in (PRINT_OUTPUT_PROFILE, PRINT_PDFX); sRGB PDF/X-4 when unset. */
  output?: PrintOutput;
  apiKey: string;
  fileUrl: (key: string) => string;
  /** `draft` for a `dev` account: Gelato keeps the order and prints nothing. */
  orderType: 'order' | 'draft';
  /** Our shipping level code → Gelato's `shipmentMethodUid`; levels without one ship Gelato's cheapest. */
  shippingMethods?: Record<string, string>;
  /** Currency Gelato bills the order in. Default EUR. */
  currency?: string;
}

const DEFAULT_SHIPPING: Record<string, string> = { standard: 'standard', normal: 'normal', express: 'express' };

export class GelatoPrinter implements PartnerPrinter {
  readonly kind = 'gelato' as const;
  readonly partner = 'gelato' as const;

  constructor(private readonly options: GelatoPrinterOptions) {}

  get output(): PrintOutput {
    return this.options.output ?? DEFAULT_PRINT_OUTPUT;
  }

  private headers(): Record<string, string> {
    return { 'x-api-key': this.options.apiKey, 'content-type': 'application/json' };
  }

  async submit(job: PrintJob): Promise<PrintSubmission> {
    const productUid = partnerProductOf('gelato', job);
    const existing = await this.findByReference(job.jobKey);
    if (existing) return { jobId: existing };
    const { shipping } = job;
    const [firstName, ...rest] = (clip(shipping.name, 200) ?? '').split(/\s+/);
    const shipmentMethodUid =
      job.shippingLevel && (this.options.shippingMethods?.[job.shippingLevel] ?? DEFAULT_SHIPPING[job.shippingLevel]);
    const body = {
      orderType: this.options.orderType,
      orderReferenceId: job.jobKey,
      customerReferenceId: job.orderId,
      currency: this.options.currency ?? 'EUR',
      items: [
        {
          itemReferenceId: job.projectId,
          productUid,
          ...(job.pageCount ? { pageCount: job.pageCount } : {}),
          files: [
            { type: 'default', url: this.options.fileUrl(job.pdfKey) },
            { type: 'cover', url: this.options.fileUrl(job.coverPdfKey) },
          ],
          quantity: job.quantity,
        },
      ],
      ...(shipmentMethodUid ? { shipmentMethodUid } : {}),
      shippingAddress: {
        firstName: firstName || shipping.name,
        lastName: rest.join(' ') || firstName || shipping.name,
        ...(shipping.company ? { companyName: shipping.company } : {}),
        addressLine1: shipping.line1,
        ...(shipping.line2 ? { addressLine2: shipping.line2 } : {}),
        city: shipping.city ?? '',
        postCode: shipping.postcode,
        ...(shipping.state ? { state: shipping.state } : {}),
        country: shipping.countryIso2,
        ...(job.contactEmail ? { email: job.contactEmail } : {}),
        ...(shipping.phone ? { phone: shipping.phone } : {}),
      },
      metadata: [
        { key: 'orderId', value: job.orderId.slice(0, 100) },
        { key: 'projectId', value: job.projectId },
      ],
    };
    const what = `the order of job ${job.jobKey}`;
    const answer = await this.options.api.call('POST', '/v4/orders', {
      headers: this.headers(),
      body: JSON.stringify(body),
      what,
    });
    if (answer.status >= 200 && answer.status < 300) {
      const id = stringOf(objectOf(answer.json).id);
      if (!id)
        throw new PrinterUnavailable(`gelato answered HTTP ${answer.status} to ${what} without an order id`, {
          status: answer.status,
        });
      return { jobId: id };
    }
    throw this.options.api.submitFailure(answer, what);
  }

  /** The live (not cancelled, not failed) order Gelato holds under our reference, if any. */
  private async findByReference(reference: string): Promise<string | undefined> {
    const what = `search orders of job ${reference}`;
    const answer = await this.options.api.call('POST', '/v4/orders:search', {
      headers: this.headers(),
      body: JSON.stringify({ orderReferenceIds: [reference], orderTypes: ['order', 'draft'], limit: 10 }),
      what,
    });
    if (answer.status < 200 || answer.status >= 300) throw this.options.api.submitFailure(answer, what);
    const orders = objectOf(answer.json).orders;
    const found = (Array.isArray(orders) ? orders.map(objectOf) : []).find(
      (o) =>
        stringOf(o.orderReferenceId) === reference &&
        !['canceled', 'failed'].includes(stringOf(o.fulfillmentStatus) ?? ''),
    );
    return found ? stringOf(found.id) : undefined;
  }

  async cancel(job: PrintJobRef): Promise<void> {
    const what = `cancel order ${job.jobId}`;
    const answer = await this.options.api.call('POST', `/v4/orders/${encodeURIComponent(job.jobId)}:cancel`, {
      headers: this.headers(),
      what,
    });
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status === 409 || answer.status === 404)
      throw new PrinterRefusedCancel(
        `gelato refused to cancel order ${job.jobId} (HTTP ${answer.status}${answer.status === 409 ? ': an item is printed' : ': unknown order'})`,
      );
    throw this.options.api.submitFailure(answer, what);
  }

  async receiveCallback(callback: PartnerCallback): Promise<PartnerJobState> {
    let event: Record<string, unknown>;
    try {
      event = objectOf(JSON.parse(callback.rawBody.toString('utf8')));
    } catch {
      throw new PartnerCallbackMalformed('the callback body is not JSON');
    }
    const id = stringOf(event.orderId);
    if (!id || !/^[A-Za-z0-9-]{1,80}$/.test(id))
      throw new PartnerCallbackMalformed('the callback names no Gelato order (orderId)');
    return this.orderState(id);
  }

  async orderState(id: string): Promise<PartnerJobState> {
    const what = `read order ${id}`;
    const answer = await this.options.api.call('GET', `/v4/orders/${encodeURIComponent(id)}`, {
      headers: this.headers(),
      what,
    });
    // A 404 means the order is not this account's: the callback is refused; other failures mean "ask again later".
    if (answer.status === 404) throw new PartnerCallbackRefused(`gelato has no order ${id} in this account`);
    if (answer.status < 200 || answer.status >= 300) throw this.options.api.submitFailure(answer, what);
    const order = objectOf(answer.json);
    const jobKey = stringOf(order.orderReferenceId);
    if (stringOf(order.id) !== id || !jobKey)
      throw new PartnerCallbackMalformed(`gelato's order ${id} carries no orderReferenceId of ours`);
    return { jobId: id, jobKey, ...gelatoStatusOf(order) };
  }
}

/** Gelato's `fulfillmentStatus` (https://dashboard.gelato.com/docs/orders/order_details) onto ours. */
const GELATO_STATUSES: Record<string, PrinterEventStatus | undefined> = {
  created: 'accepted',
  uploading: 'accepted',
  passed: 'accepted',
  draft: undefined,
  in_production: 'printing',
  printed: 'printed',
  shipped: 'delivering',
  in_transit: 'delivering',
  delivered: 'complete',
  returned: 'undelivered',
  failed: 'failed processing',
  canceled: 'failed processing',
  pending_approval: 'on hold',
  pending_personalization: 'on hold',
  on_hold: 'on hold',
  not_connected: 'on hold',
  digitizing: 'accepted',
};

function gelatoStatusOf(order: Record<string, unknown>): {
  status?: PrinterEventStatus;
  parcels: Parcel[];
  reason?: string;
} {
  const fulfillment = stringOf(order.fulfillmentStatus) ?? '';
  const status = GELATO_STATUSES[fulfillment];
  const parcels: Parcel[] = [];
  // The order's shipment packages (GET /v4/orders/{id}) and each item's fulfillments (as the webhook shows them).
  const shipment = objectOf(order.shipment);
  for (const pkg of Array.isArray(shipment.packages) ? shipment.packages.map(objectOf) : []) {
    const parcel = parcelOf(shipment.shipmentMethodName, pkg.trackingCode, pkg.trackingUrl);
    if (parcel) parcels.push(parcel);
  }
  for (const item of Array.isArray(order.items) ? order.items.map(objectOf) : []) {
    for (const f of Array.isArray(item.fulfillments) ? item.fulfillments.map(objectOf) : []) {
      const parcel = parcelOf(f.shipmentMethodName, f.trackingCode, f.trackingUrl);
      if (parcel && !parcels.some((p) => p.trackingNumber === parcel.trackingNumber)) parcels.push(parcel);
    }
  }
  const reason =
    status === 'failed processing' || status === 'on hold'
      ? fulfillment === 'canceled'
        ? 'cancelled by Gelato'
        : `gelato: ${fulfillment}`
      : undefined;
  return { ...(status ? { status } : {}), parcels, ...(reason ? { reason } : {}) };
}
