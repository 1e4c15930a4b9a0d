import { isPrinterEventStatus, PRINTER_EVENT_STATUSES, type PrinterEventStatus } from '../domain/order-status';
import { MAX_PARCELS, type Parcel } from '../domain/parcel';
import {
  verifyStandardWebhook,
  WebhookVerificationFailure,
  type VerifyStandardWebhookOptions,
} from './standard-webhooks';

/**
 * Inbound printer status events (`POST /v2/psp/{psp}/events`): a Standard Webhooks signature over
 * the exact bytes received, then a body `{ jobId, jobKey?, orderId?, status, trackingUrl?, parcels?, occurredAt? }` whose status
 * must be one a printer may report (PRINTER_EVENT_STATUSES). Whether the status may be applied to
 * the order is the transition table's decision, not this file's.
 */

/** A verified event. */
export interface PspEvent {
  /** `webhook-id`: the same on the printer's retries of one event, so it can be deduplicated. */
  webhookId: string;
  /** `webhook-timestamp`, Unix seconds. */
  timestamp: number;
  jobId: string;
  /**
   * The job as we sent it, echoed by the printer: our `jobKey`, or the shop's `orderId`. Either
   * pins the event to the order it is about even when the printer reissued the job id.
   */
  jobKey?: string;
  orderId?: string;
  status: PrinterEventStatus;
  trackingUrl?: string;
  /** Carrier, tracking number and URL per parcel. */
  parcels?: Parcel[];
  /** When the printer says it happened, normalised to ISO 8601 UTC. */
  occurredAt?: string;
}

export type PspWebhookErrorCode = 'BAD_SIGNATURE' | 'STALE_TIMESTAMP' | 'MALFORMED_EVENT';

export class PspWebhookError extends Error {
  readonly code: PspWebhookErrorCode;

  constructor(code: PspWebhookErrorCode, message: string) {
    super(message);
    this.name = 'PspWebhookError';
    this.code = code;
  }
}

export type VerifyPspEventOptions = Omit<VerifyStandardWebhookOptions, 'secretName'>;

const MAX_JOB_ID_LENGTH = 200;
const MAX_URL_LENGTH = 2048;
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/**
 * Verifies and parses one event: the signature (BAD_SIGNATURE), then the timestamp within
 * `toleranceSeconds` of now, default 300 (STALE_TIMESTAMP), then the body (MALFORMED_EVENT).
 * Throws PspWebhookError with the reason; an unusable configured secret throws a plain Error.
 */
export function verifyPspEvent(options: VerifyPspEventOptions): PspEvent {
  let signed: { id: string; timestamp: number };
  try {
    signed = verifyStandardWebhook({ ...options, secretName: 'the printer webhook secret (PSP_WEBHOOK_SECRETS)' });
  } catch (error) {
    if (error instanceof WebhookVerificationFailure) throw new PspWebhookError(error.code, error.message);
    throw error;
  }
  return { webhookId: signed.id, timestamp: signed.timestamp, ...parseEventBody(options.rawBody) };
}

function parseEventBody(rawBody: string | Buffer): Omit<PspEvent, 'webhookId' | 'timestamp'> {
  let body: unknown;
  try {
    body = JSON.parse(typeof rawBody === 'string' ? rawBody : rawBody.toString('utf8'));
  } catch {
    throw new PspWebhookError('MALFORMED_EVENT', 'the event body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new PspWebhookError('MALFORMED_EVENT', 'the event body must be a JSON object');
  }
  const { jobId, jobKey, orderId, status, trackingUrl, parcels, occurredAt } = body as Record<string, unknown>;

  if (typeof jobId !== 'string' || jobId.trim() === '' || jobId.length > MAX_JOB_ID_LENGTH) {
    throw new PspWebhookError(
      'MALFORMED_EVENT',
      `jobId must be a non-empty string of at most ${MAX_JOB_ID_LENGTH} characters`,
    );
  }
  if (!isPrinterEventStatus(status)) {
    throw new PspWebhookError(
      'MALFORMED_EVENT',
      `status ${JSON.stringify(status)} is not a status a printer may report; expected one of: ${PRINTER_EVENT_STATUSES.join(', ')}`,
    );
  }
  const event: Omit<PspEvent, 'webhookId' | 'timestamp'> = { jobId, status };
  for (const [name, value] of [
    ['jobKey', jobKey],
    ['orderId', orderId],
  ] as const) {
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_JOB_ID_LENGTH) {
      throw new PspWebhookError(
        'MALFORMED_EVENT',
        `${name} must be a non-empty string of at most ${MAX_JOB_ID_LENGTH} characters`,
      );
    }
    event[name] = value;
  }
  if (trackingUrl !== undefined && trackingUrl !== null) {
    if (typeof trackingUrl !== 'string' || !isWebUrl(trackingUrl)) {
      throw new PspWebhookError(
        'MALFORMED_EVENT',
        `trackingUrl must be an http or https URL of at most ${MAX_URL_LENGTH} characters`,
      );
    }
    event.trackingUrl = trackingUrl;
  }
  if (parcels !== undefined && parcels !== null) event.parcels = parseParcels(parcels);
  if (occurredAt !== undefined && occurredAt !== null) {
    const at = typeof occurredAt === 'string' && ISO_DATE_TIME.test(occurredAt) ? Date.parse(occurredAt) : Number.NaN;
    if (Number.isNaN(at)) {
      throw new PspWebhookError(
        'MALFORMED_EVENT',
        'occurredAt must be an ISO 8601 date-time with a time zone, e.g. 2026-11-21T17:05:00Z',
      );
    }
    event.occurredAt = new Date(at).toISOString();
  }
  return event;
}

const MAX_PARCEL_TEXT = 100;

function parseParcels(value: unknown): Parcel[] {
  if (!Array.isArray(value) || value.length > MAX_PARCELS) {
    throw new PspWebhookError(
      'MALFORMED_EVENT',
      `parcels must be an array of at most ${MAX_PARCELS} {carrier?, trackingNumber?, trackingUrl?} objects`,
    );
  }
  return value.map((item: unknown, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw new PspWebhookError('MALFORMED_EVENT', `parcels[${i}] must be an object`);
    const { carrier, trackingNumber, trackingUrl } = item as Record<string, unknown>;
    const parcel: Parcel = {};
    for (const [name, text] of [
      ['carrier', carrier],
      ['trackingNumber', trackingNumber],
    ] as const) {
      if (text === undefined || text === null) continue;
      if (
        typeof text !== 'string' ||
        text.trim() === '' ||
        text.length > MAX_PARCEL_TEXT ||
        /[\u0000-\u001f\u007f]/.test(text)
      ) {
        throw new PspWebhookError(
          'MALFORMED_EVENT',
          `parcels[${i}].${name} must be a non-empty string of at most ${MAX_PARCEL_TEXT} characters`,
        );
      }
      parcel[name] = text.trim();
    }
    if (trackingUrl !== undefined && trackingUrl !== null) {
      if (typeof trackingUrl !== 'string' || !isWebUrl(trackingUrl)) {
        throw new PspWebhookError(
          'MALFORMED_EVENT',
          `parcels[${i}].trackingUrl must be an http or https URL of at most ${MAX_URL_LENGTH} characters`,
        );
      }
      parcel.trackingUrl = trackingUrl;
    }
    return parcel;
  });
}

function isWebUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
