import { OutboundError, type SafeFetch } from '../outbound/safe-fetch';
import type { Parcel } from '../domain/parcel';
import type { PrinterEventStatus } from '../domain/order-status';
import type { PrintPartner } from '../domain/print-partners';
import { PrinterRejectedJob, PrinterUnavailable, type Printer } from './printer';

/**
 * What the three partner adapters share: one JSON call through the guarded outbound client, and
 * the one reading of a partner's HTTP answer. A 4xx other than 401/403/408/409/429 is the
 * partner's refusal of the job as we sent it (PrinterRejectedJob: resending it cannot help);
 * 401/403 mean the shop's credentials are wrong or revoked, which is no fault of the job and may be
 * mended, so they are PrinterUnavailable like network errors, timeouts, 408, 429 and 5xx.
 */

export interface PartnerApiOptions {
  partner: PrintPartner;
  /** The partner's API root (sandbox for `dev`, live for `prod`, or the operator's override). */
  baseUrl: string;
  fetch: SafeFetch;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
}

export interface PartnerAnswer {
  status: number;
  headers: Record<string, string>;
  json: unknown;
  text: string;
}

const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export class PartnerApi {
  constructor(private readonly options: PartnerApiOptions) {}

  get partner(): PrintPartner {
    return this.options.partner;
  }

  url(path: string): string {
    return `${this.options.baseUrl.replace(/\/+$/, '')}${path}`;
  }

  /** One call; every status comes back (the caller classifies it), only an unreachable partner throws. */
  async call(
    method: string,
    path: string,
    init: { headers: Record<string, string>; body?: string; what: string },
  ): Promise<PartnerAnswer> {
    try {
      const response = await this.options.fetch(this.url(path), {
        method,
        headers: { accept: 'application/json', ...init.headers },
        ...(init.body === undefined ? {} : { body: init.body }),
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxBytes: MAX_RESPONSE_BYTES,
        okStatuses: () => true,
      });
      const text = response.body.toString('utf8');
      let json: unknown;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, headers: response.headers, json, text };
    } catch (error) {
      if (error instanceof OutboundError)
        throw new PrinterUnavailable(`${this.partner} could not be reached to ${init.what}: ${error.message}`, {
          cause: error,
        });
      throw error;
    }
  }

  /** The error a failed answer means for a submit. */
  submitFailure(answer: PartnerAnswer, what: string): PrinterRejectedJob | PrinterUnavailable {
    const message = `${this.partner} answered HTTP ${answer.status} to ${what}${describe(answer)}`;
    if (isRefusal(answer.status)) return new PrinterRejectedJob(message, { status: answer.status });
    const retryAfterSeconds = retryAfterOf(answer.headers['retry-after']);
    return new PrinterUnavailable(message, {
      status: answer.status,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }
}

/** A 4xx that says the request itself is wrong, not that the partner or the account cannot take it now. */
function isRefusal(status: number): boolean {
  return status >= 400 && status < 500 && ![401, 403, 408, 409, 429].includes(status);
}

/** The partner's own explanation, from the fields partners put it in, or the start of the body. */
function describe(answer: PartnerAnswer): string {
  const body = answer.json as Record<string, unknown> | undefined;
  for (const field of ['statusText', 'message', 'detail', 'error', 'outcome', 'title']) {
    const value = body?.[field];
    if (typeof value === 'string' && value.trim() !== '') return `: ${value.slice(0, 300)}`;
  }
  const text = answer.text.trim();
  return text ? `: ${text.slice(0, 300)}` : '';
}

function retryAfterOf(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** A partner's job as it stands now, read from its API (or from a callback the partner signed). */
export interface PartnerJobState {
  /** The partner's id of the job (what `submit` answered as jobId). */
  jobId: string;
  /** Our job key, as we sent it as the partner's merchant reference. */
  jobKey: string;
  /** The order status it means; undefined when it means nothing new (created, a draft, cancelled at our request). */
  status?: PrinterEventStatus;
  parcels: Parcel[];
  /** The partner's reason, when the status is `failed processing` or `on hold`. */
  reason?: string;
}

/** A callback the partner's documented check did not pass. */
export class PartnerCallbackRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartnerCallbackRefused';
  }
}

/** A callback that passed the check but does not say what it must (not JSON, no order id). */
export class PartnerCallbackMalformed extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PartnerCallbackMalformed';
  }
}

export interface PartnerCallback {
  headers: Record<string, string | string[] | undefined>;
  rawBody: Buffer;
}

/** A partner printer: the printer interface plus the reading of the partner's callbacks. */
export interface PartnerPrinter extends Printer {
  readonly partner: PrintPartner;
  /**
   * Checks a callback as the partner documents it (or, where it documents no signature, reads the
   * job back from the partner's API and believes only that) and answers the job's state.
   */
  receiveCallback(callback: PartnerCallback): Promise<PartnerJobState>;
}

/** The product id of this partner for the job, or the rejection that names the catalogue field to set. */
export function partnerProductOf(
  partner: PrintPartner,
  job: { sku?: string; partnerProducts?: Partial<Record<PrintPartner, string>> },
): string {
  const id = job.partnerProducts?.[partner];
  if (!id)
    throw new PrinterRejectedJob(
      `product ${JSON.stringify(job.sku ?? '(unknown)')} has no ${partner} product id: set products[].partnerProducts.${partner} in the catalogue`,
    );
  return id;
}

/** Text that fits a partner's field: trimmed, at most `max` characters, undefined when empty. */
export function clip(value: string | undefined | null, max: number): string | undefined {
  const text = value?.trim();
  return text ? text.slice(0, max) : undefined;
}

/** The object at `value`, or an empty one: partner JSON is read defensively. */
export function objectOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== ''
    ? value
    : typeof value === 'number'
      ? String(value)
      : undefined;
}

/** A parcel from partner text, each member trimmed and bounded like the PSP event reader's; undefined when it says nothing. */
export function parcelOf(carrier: unknown, trackingNumber: unknown, trackingUrl: unknown): Parcel | undefined {
  const parcel: Parcel = {};
  const c = clip(stringOf(carrier), 100);
  const n = clip(stringOf(trackingNumber), 100);
  const u = stringOf(trackingUrl);
  if (c) parcel.carrier = c;
  if (n) parcel.trackingNumber = n;
  if (u && isWebUrl(u)) parcel.trackingUrl = u;
  return Object.keys(parcel).length > 0 ? parcel : undefined;
}

function isWebUrl(value: string): boolean {
  if (value.length > 2048) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
