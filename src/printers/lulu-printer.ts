import { DEFAULT_PRINT_OUTPUT, type PrintOutput } from '../domain/print-output';
import { createHmac, timingSafeEqual } from 'node:crypto';
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
  PrinterRejectedJob,
  PrinterUnavailable,
  type PrintJob,
  type PrintJobRef,
  type PrintSubmission,
} from './printer';

/**
 * Lulu Print API (https://api.lulu.com/docs/), sandbox `https://api.sandbox.lulu.com`, live
 * `https://api.lulu.com`. Authorised with an OAuth2 client credentials token from
 * `/auth/realms/glasstree/protocol/openid-connect/token` (HTTP Basic with the client key and secret),
 * kept until shortly before it expires.
 *
 * - Submit: `POST /print-jobs/` with our job key as `external_id` of the job and of its one line
 *   item, whose `printable_normalization` names the mapped `pod_package_id` and our signed URLs of
 *   the cover sheet and the interior (Lulu downloads and normalises them). Lulu has no idempotency
 *   key, so a submit first lists print jobs searched by the key and answers the one whose
 *   `external_id` is it.
 * - Cancel: `PUT /print-jobs/{id}/status/` `{"name": "CANCELED"}`; Lulu refuses once production started.
 * - Callbacks: the `PRINT_JOB_STATUS_CHANGED` webhook, `{topic, data: <print job>}`, signed with
 *   `Lulu-HMAC-SHA256`: the hex HMAC-SHA256 of the raw body keyed with the API client secret. A
 *   callback whose signature does not match is refused; a signed one is believed as it is.
 */

export interface LuluPrinterOptions {
  api: PartnerApi;
  /** What the files are rendered in (PRINT_OUTPUT_PROFILE, PRINT_PDFX); sRGB PDF/X-4 when unset. */
  output?: PrintOutput;
  clientKey: string;
  clientSecret: string;
  fileUrl: (key: string) => string;
  /** Our shipping level code → Lulu's `shipping_level`. */
  shippingMethods?: Record<string, string>;
  now?: () => number;
}

const DEFAULT_SHIPPING: Record<string, string> = {
  budget: 'MAIL',
  economy: 'MAIL',
  standard: 'MAIL',
  priority: 'PRIORITY_MAIL',
  ground: 'GROUND',
  expedited: 'EXPEDITED',
  express: 'EXPRESS',
};

export class LuluPrinter implements PartnerPrinter {
  readonly kind = 'lulu' as const;
  readonly partner = 'lulu' as const;
  private token?: { value: string; until: number };

  constructor(private readonly options: LuluPrinterOptions) {}

  get output(): PrintOutput {
    return this.options.output ?? DEFAULT_PRINT_OUTPUT;
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** A bearer token, fetched when there is none or it expires within a minute. */
  private async headers(): Promise<Record<string, string>> {
    if (!this.token || this.token.until <= this.now()) {
      const basic = Buffer.from(`${this.options.clientKey}:${this.options.clientSecret}`).toString('base64');
      const what = 'obtain an access token';
      const answer = await this.options.api.call('POST', '/auth/realms/glasstree/protocol/openid-connect/token', {
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
        what,
      });
      const body = objectOf(answer.json);
      const value = stringOf(body.access_token);
      if (answer.status < 200 || answer.status >= 300 || !value) {
        // A refused client is the shop's credentials, not the job: the job may go once they are mended.
        throw new PrinterUnavailable(
          `lulu answered HTTP ${answer.status} when asked for an access token; check the account's client key and secret`,
          { status: answer.status },
        );
      }
      const seconds = typeof body.expires_in === 'number' ? body.expires_in : 300;
      this.token = { value, until: this.now() + Math.max(0, seconds - 60) * 1000 };
    }
    return { authorization: `Bearer ${this.token.value}`, 'content-type': 'application/json' };
  }

  async submit(job: PrintJob): Promise<PrintSubmission> {
    const podPackageId = partnerProductOf('lulu', job);
    const { shipping } = job;
    if (!job.contactEmail)
      throw new PrinterRejectedJob(`lulu needs a contact e-mail and order ${job.orderId} has none (email)`);
    const existing = await this.findByExternalId(job.jobKey);
    if (existing) return { jobId: existing };
    const body = {
      external_id: job.jobKey,
      contact_email: job.contactEmail,
      shipping_level: shippingLevelOf(job.shippingLevel, this.options.shippingMethods),
      shipping_address: {
        name: clip(shipping.name, 100) ?? shipping.line1,
        street1: shipping.line1,
        ...(shipping.line2 ? { street2: shipping.line2 } : {}),
        city: shipping.city ?? '',
        ...(shipping.state ? { state_code: shipping.state } : {}),
        postcode: shipping.postcode,
        country_code: shipping.countryIso2,
        ...(shipping.phone ? { phone_number: shipping.phone } : {}),
        email: job.contactEmail,
      },
      line_items: [
        {
          external_id: job.jobKey,
          title: `Photobook ${job.projectId}`.slice(0, 100),
          quantity: job.quantity,
          printable_normalization: {
            pod_package_id: podPackageId,
            cover: { source_url: this.options.fileUrl(job.coverPdfKey) },
            interior: { source_url: this.options.fileUrl(job.pdfKey) },
          },
        },
      ],
    };
    const what = `the print job of ${job.jobKey}`;
    const answer = await this.options.api.call('POST', '/print-jobs/', {
      headers: await this.headers(),
      body: JSON.stringify(body),
      what,
    });
    if (answer.status >= 200 && answer.status < 300) {
      const id = stringOf(objectOf(answer.json).id);
      if (!id)
        throw new PrinterUnavailable(`lulu answered HTTP ${answer.status} to ${what} without a print job id`, {
          status: answer.status,
        });
      return { jobId: id };
    }
    throw this.options.api.submitFailure(answer, what);
  }

  private async findByExternalId(externalId: string): Promise<string | undefined> {
    const what = `list print jobs of ${externalId}`;
    const answer = await this.options.api.call(
      'GET',
      `/print-jobs/?search=${encodeURIComponent(externalId)}&exclude_line_items=true`,
      { headers: await this.headers(), what },
    );
    if (answer.status < 200 || answer.status >= 300) throw this.options.api.submitFailure(answer, what);
    const results = objectOf(answer.json).results;
    const found = (Array.isArray(results) ? results.map(objectOf) : []).find(
      (job) =>
        stringOf(job.external_id) === externalId &&
        !['CANCELED', 'REJECTED', 'ERROR'].includes(stringOf(objectOf(job.status).name) ?? ''),
    );
    return found ? stringOf(found.id) : undefined;
  }

  async cancel(job: PrintJobRef): Promise<void> {
    const what = `cancel print job ${job.jobId}`;
    const answer = await this.options.api.call('PUT', `/print-jobs/${encodeURIComponent(job.jobId)}/status/`, {
      headers: await this.headers(),
      body: JSON.stringify({ name: 'CANCELED' }),
      what,
    });
    if (answer.status >= 200 && answer.status < 300) return;
    if (answer.status === 400 || answer.status === 404 || answer.status === 409)
      throw new PrinterRefusedCancel(
        `lulu refused to cancel print job ${job.jobId} (HTTP ${answer.status}${detailOf(answer.json)})`,
      );
    throw this.options.api.submitFailure(answer, what);
  }

  async receiveCallback(callback: PartnerCallback): Promise<PartnerJobState> {
    const header = callback.headers['lulu-hmac-sha256'];
    const given = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase() ?? '';
    const expected = createHmac('sha256', this.options.clientSecret).update(callback.rawBody).digest('hex');
    if (given.length !== expected.length || !timingSafeEqual(Buffer.from(given), Buffer.from(expected)))
      throw new PartnerCallbackRefused(
        given ? 'Lulu-HMAC-SHA256 does not match the body and the account secret' : 'Lulu-HMAC-SHA256 is missing',
      );
    let event: Record<string, unknown>;
    try {
      event = objectOf(JSON.parse(callback.rawBody.toString('utf8')));
    } catch {
      throw new PartnerCallbackMalformed('the callback body is not JSON');
    }
    const job = objectOf(event.data);
    const id = stringOf(job.id);
    const jobKey = stringOf(job.external_id);
    if (stringOf(event.topic) !== 'PRINT_JOB_STATUS_CHANGED' || !id || !jobKey)
      throw new PartnerCallbackMalformed('the callback is not a PRINT_JOB_STATUS_CHANGED of a print job of ours');
    return { jobId: id, jobKey, ...luluStatusOf(job) };
  }
}

function shippingLevelOf(level: string | undefined, own: Record<string, string> | undefined): string {
  if (!level) return 'MAIL';
  return own?.[level] ?? DEFAULT_SHIPPING[level] ?? 'MAIL';
}

function detailOf(json: unknown): string {
  const body = objectOf(json);
  const text = stringOf(body.detail) ?? stringOf(body.message) ?? stringOf(objectOf(body.status).name);
  return text ? `: ${text.slice(0, 200)}` : '';
}

/** Lulu's print job `status.name` onto ours. */
const LULU_STATUSES: Record<string, PrinterEventStatus | undefined> = {
  CREATED: 'accepted',
  UNPAID: 'on hold',
  PAYMENT_IN_PROGRESS: 'accepted',
  PRODUCTION_DELAYED: 'accepted',
  PRODUCTION_READY: 'accepted',
  IN_PRODUCTION: 'printing',
  SHIPPED: 'delivering',
  DELIVERED: 'complete',
  REJECTED: 'failed processing',
  CANCELED: 'failed processing',
  ERROR: 'failed processing',
};

function luluStatusOf(job: Record<string, unknown>): {
  status?: PrinterEventStatus;
  parcels: Parcel[];
  reason?: string;
} {
  const jobStatus = objectOf(job.status);
  const name = stringOf(jobStatus.name) ?? '';
  const status = LULU_STATUSES[name];
  const parcels: Parcel[] = [];
  for (const item of Array.isArray(job.line_items) ? job.line_items.map(objectOf) : []) {
    const messages = objectOf(objectOf(item.status).messages);
    const urls = Array.isArray(messages.tracking_urls) ? messages.tracking_urls : [];
    const parcel = parcelOf(messages.carrier_name, messages.tracking_id, urls[0]);
    if (parcel) parcels.push(parcel);
  }
  const message = stringOf(jobStatus.message);
  const reason =
    status === 'failed processing' || status === 'on hold'
      ? name === 'CANCELED'
        ? 'cancelled by Lulu'
        : `lulu: ${name}${message ? `: ${message.slice(0, 300)}` : ''}`
      : undefined;
  return { ...(status ? { status } : {}), parcels, ...(reason ? { reason } : {}) };
}
