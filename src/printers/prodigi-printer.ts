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
 * Prodigi Print API v4 (https://www.prodigi.com/print-api/docs/reference/). Sandbox
 * `https://api.sandbox.prodigi.com/v4.0`, live `https://api.prodigi.com/v4.0`, `X-API-Key` on every call.
 *
 * - Submit: `POST /orders` with our job key as `merchantReference` and as `idempotencyKey` ("we
 *   remember all your idempotency keys indefinitely"): a repeated submit answers `alreadyExists`
 *   with the order first created. The book is one item of the mapped SKU with two assets, the
 *   interior (`printArea: default`, with its `pageCount`) and the cover sheet (`printArea: cover`),
 *   each a signed URL of ours that Prodigi downloads.
 * - Cancel: `POST /orders/{id}/actions/cancel`; its `outcome` says `Cancelled`, or
 *   `FailedToCancel`/`ActionNotAvailable` once the order is in production.
 * - Callbacks: CloudEvents carrying the whole order, sent to the per-order `callbackUrl`. Prodigi
 *   documents no signature, so a callback is only a hint: its URL carries the account's secret
 *   token (checked by the route), and the order is read back with `GET /orders/{id}` under the
 *   shop's key; only what Prodigi's API answers moves the order.
 */

export interface ProdigiPrinterOptions {
  api: PartnerApi;
  /** What the files are rendered in (PRINT_OUTPUT_PROFILE, PRINT_PDFX); sRGB PDF/X-4 when unset. */
  output?: PrintOutput;
  apiKey: string;
  /** Public URL of a FileStore key (signed, expiring): Prodigi downloads the PDFs from there. */
  fileUrl: (key: string) => string;
  /** Where Prodigi posts this account's callbacks. */
  callbackUrl: string;
  /** Our shipping level code → Prodigi's shipping method; the shop's own mapping first. */
  shippingMethods?: Record<string, string>;
}

/** Our level codes Prodigi's methods default to; a level without one ships `Standard`. */
const DEFAULT_SHIPPING: Record<string, string> = {
  budget: 'Budget',
  economy: 'Budget',
  standard: 'Standard',
  express: 'Express',
  overnight: 'Overnight',
};

export class ProdigiPrinter implements PartnerPrinter {
  readonly kind = 'prodigi' as const;
  readonly partner = 'prodigi' as const;

  constructor(private readonly options: ProdigiPrinterOptions) {}

  get output(): PrintOutput {
    return this.options.output ?? DEFAULT_PRINT_OUTPUT;
  }

  private headers(): Record<string, string> {
    return { 'x-api-key': this.options.apiKey, 'content-type': 'application/json' };
  }

  async submit(job: PrintJob): Promise<PrintSubmission> {
    const sku = partnerProductOf('prodigi', job);
    const { shipping } = job;
    const body = {
      merchantReference: job.jobKey,
      idempotencyKey: job.jobKey,
      callbackUrl: this.options.callbackUrl,
      shippingMethod: shippingMethodOf(job.shippingLevel, this.options.shippingMethods),
      recipient: {
        name: clip(shipping.name, 200) ?? shipping.line1,
        ...(job.contactEmail ? { email: job.contactEmail } : {}),
        ...(shipping.phone ? { phoneNumber: shipping.phone } : {}),
        address: {
          line1: shipping.line1,
          ...(shipping.line2 ? { line2: shipping.line2 } : {}),
          postalOrZipCode: shipping.postcode,
          countryCode: shipping.countryIso2,
          townOrCity: shipping.city ?? '',
          ...(shipping.state ? { stateOrCounty: shipping.state } : {}),
        },
      },
      items: [
        {
          merchantReference: job.projectId,
          sku,
          copies: job.quantity,
          sizing: 'fillPrintArea',
          assets: [
            {
              printArea: 'default',
              url: this.options.fileUrl(job.pdfKey),
              ...(job.pageCount ? { pageCount: job.pageCount } : {}),
            },
            { printArea: 'cover', url: this.options.fileUrl(job.coverPdfKey) },
          ],
        },
      ],
      metadata: { orderId: job.orderId, projectId: job.projectId },
    };
    const what = `the order of job ${job.jobKey}`;
    const answer = await this.options.api.call('POST', '/orders', {
      headers: this.headers(),
      body: JSON.stringify(body),
      what,
    });
    if (answer.status >= 200 && answer.status < 300) {
      const id = stringOf(objectOf(objectOf(answer.json).order).id);
      if (!id)
        throw new PrinterUnavailable(`prodigi answered HTTP ${answer.status} to ${what} without an order id`, {
          status: answer.status,
        });
      return { jobId: id };
    }
    throw this.options.api.submitFailure(answer, what);
  }

  async cancel(job: PrintJobRef): Promise<void> {
    const what = `cancel order ${job.jobId}`;
    const answer = await this.options.api.call('POST', `/orders/${encodeURIComponent(job.jobId)}/actions/cancel`, {
      headers: this.headers(),
      what,
    });
    const body = objectOf(answer.json);
    const outcome = stringOf(body.outcome)?.toLowerCase();
    const stage = stringOf(objectOf(objectOf(body.order).status).stage);
    if (answer.status >= 200 && answer.status < 300) {
      if (outcome === 'cancelled' || stage === 'Cancelled') return;
      // `failedToCancel` / `actionNotAvailable` come with 200: the order is in production.
      throw new PrinterRefusedCancel(
        `prodigi did not cancel order ${job.jobId}: ${stringOf(body.outcome) ?? 'no outcome'}`,
      );
    }
    if (answer.status === 404) throw new PrinterRefusedCancel(`prodigi does not know order ${job.jobId}`);
    throw this.options.api.submitFailure(answer, what);
  }

  async receiveCallback(callback: PartnerCallback): Promise<PartnerJobState> {
    let event: Record<string, unknown>;
    try {
      event = objectOf(JSON.parse(callback.rawBody.toString('utf8')));
    } catch {
      throw new PartnerCallbackMalformed('the callback body is not JSON');
    }
    // CloudEvents `subject` is the order id; `data.order.id` too. Neither is believed beyond naming the order to read.
    const id = stringOf(event.subject) ?? stringOf(objectOf(objectOf(event.data).order).id);
    if (!id || !/^ord_[A-Za-z0-9]{1,60}$/.test(id))
      throw new PartnerCallbackMalformed('the callback names no Prodigi order (subject "ord_…")');
    return this.orderState(id);
  }

  /** The order as Prodigi's API has it now. */
  async orderState(id: string): Promise<PartnerJobState> {
    const what = `read order ${id}`;
    const answer = await this.options.api.call('GET', `/orders/${encodeURIComponent(id)}`, {
      headers: this.headers(),
      what,
    });
    // A 404 means the order is not this account's: the callback is refused; other failures mean "ask again later".
    if (answer.status === 404) throw new PartnerCallbackRefused(`prodigi has no order ${id} in this account`);
    if (answer.status < 200 || answer.status >= 300) throw this.options.api.submitFailure(answer, what);
    const order = objectOf(objectOf(answer.json).order);
    const jobKey = stringOf(order.merchantReference) ?? stringOf(order.idempotencyKey);
    if (stringOf(order.id) !== id || !jobKey)
      throw new PartnerCallbackMalformed(`prodigi's order ${id} carries no merchantReference of ours`);
    return { jobId: id, jobKey, ...prodigiStatusOf(order) };
  }
}

function shippingMethodOf(level: string | undefined, own: Record<string, string> | undefined): string {
  if (!level) return 'Standard';
  return own?.[level] ?? DEFAULT_SHIPPING[level] ?? 'Standard';
}

/**
 * Prodigi's order onto our statuses. Its `stage` is coarse (InProgress, Complete = every shipment
 * sent, Cancelled), so the `details` steps and the shipments say how far an order in progress has
 * come. Prodigi reports no delivery: its most is `delivering`.
 */
function prodigiStatusOf(order: Record<string, unknown>): {
  status?: PrinterEventStatus;
  parcels: Parcel[];
  reason?: string;
} {
  const status = objectOf(order.status);
  const stage = stringOf(status.stage);
  const details = objectOf(status.details);
  const issues = Array.isArray(status.issues) ? status.issues.map(objectOf) : [];
  const shipments = Array.isArray(order.shipments) ? order.shipments.map(objectOf) : [];
  const parcels = shipments
    .filter((s) => stringOf(s.status) === 'Shipped' || objectOf(s.tracking).number !== undefined)
    .map((s) =>
      parcelOf(
        [stringOf(objectOf(s.carrier).name), stringOf(objectOf(s.carrier).service)].filter(Boolean).join(' '),
        objectOf(s.tracking).number,
        objectOf(s.tracking).url,
      ),
    )
    .filter((p): p is Parcel => p !== undefined);
  const issueText = issues
    .map((i) => stringOf(i.description) ?? stringOf(i.errorCode))
    .filter(Boolean)
    .join('; ')
    .slice(0, 500);
  if (stage === 'Cancelled') return { status: 'failed processing', parcels, reason: 'cancelled by Prodigi' };
  if (stage === 'Complete') return { status: 'delivering', parcels };
  if (parcels.length > 0 || ['InProgress', 'Complete'].includes(stringOf(details.shipping) ?? ''))
    return { status: 'delivering', parcels };
  if (Object.values(details).some((v) => v === 'Error'))
    return { status: 'failed processing', parcels, ...(issueText ? { reason: issueText } : {}) };
  if (issues.some((i) => stringOf(i.errorCode) === 'RequiresPaymentAuthorisation'))
    return { status: 'on hold', parcels, ...(issueText ? { reason: issueText } : {}) };
  if (['InProgress', 'Complete'].includes(stringOf(details.inProduction) ?? '')) return { status: 'printing', parcels };
  if (stage === 'InProgress') return { status: 'accepted', parcels };
  return { parcels };
}
