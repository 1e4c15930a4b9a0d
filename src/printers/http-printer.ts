import { createHash } from 'node:crypto';
import { OutboundError, type SafeFetch, type SafeFetchResponse } from '../outbound/safe-fetch';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type Printer,
  type PrintJob,
  type PrintJobRef,
  type PrintSubmission,
} from './printer';
import { unixSeconds, WebhookSigner } from './standard-webhooks';
import { DEFAULT_PRINT_OUTPUT, type PrintOutput } from '../domain/print-output';

export interface HttpPrinterOptions {
  /** The files the PSP takes (PRINT_OUTPUT_PROFILE, PRINT_PDFX); sRGB PDF/X-4 by default. */
  output?: PrintOutput;
  /** The PSP's job URL (PRINTER_HTTP_URL). */
  endpoint: string;
  /** Standard Webhooks secret the PSP verifies our requests with, `whsec_<base64>` (PRINTER_HTTP_SECRET). */
  signingSecret: string;
  /** The guarded outbound client. */
  fetch: SafeFetch;
  /** Public URL of a FileStore key; the PSP downloads the PDFs and the manifest from there. */
  fileUrl: (key: string) => string;
  /** Per request. Default 30 s. */
  timeoutMs?: number;
  now?: () => Date;
}

/** The JSON body the PSP receives. */
interface HttpPrintJobBody {
  jobKey: string;
  orderId: string;
  projectId: string;
  quantity: number;
  /**
   * `cover`: the cover sheet (one page: back, spine, front); `interior`: the book's pages, as
   * printers validate them apart. `pdf` is the interior too, for PSPs that read that name.
   */
  files: { cover: string; interior: string; pdf: string; manifest: string };
  shippingLevel?: string;
  shipping: PrintJob['shipping'];
}

const MAX_RESPONSE_BYTES = 1024 * 1024;
const MAX_JOB_ID_LENGTH = 200;

/**
 * A PSP that takes jobs over HTTP (PRINTER=http): POSTs the job with links to its files, signed
 * per Standard Webhooks. Idempotency rests on two things the PSP contract requires: the same job
 * always carries the same `Idempotency-Key` (the job key) and the same `webhook-id`, and the PSP
 * answers a repeated key with the job it already created. Failures say whether a retry can help:
 * `PrinterRejectedJob` (4xx other than 408/429: fix the job, do not resend it as it is) or
 * `PrinterUnavailable` (network, timeout, 408, 429, 5xx, unreadable answer: retry later).
 */
export class HttpPrinter implements Printer {
  readonly kind = 'http' as const;
  readonly output: PrintOutput;
  private readonly signer: WebhookSigner;

  constructor(private readonly options: HttpPrinterOptions) {
    this.output = options.output ?? DEFAULT_PRINT_OUTPUT;
    this.signer = new WebhookSigner(options.signingSecret, 'the HTTP printer signing secret (PRINTER_HTTP_SECRET)');
  }

  async submit(job: PrintJob): Promise<PrintSubmission> {
    const payload: HttpPrintJobBody = {
      jobKey: job.jobKey,
      orderId: job.orderId,
      projectId: job.projectId,
      quantity: job.quantity,
      files: {
        cover: this.options.fileUrl(job.coverPdfKey),
        interior: this.options.fileUrl(job.pdfKey),
        pdf: this.options.fileUrl(job.pdfKey),
        manifest: this.options.fileUrl(job.manifestKey),
      },
      ...(job.shippingLevel ? { shippingLevel: job.shippingLevel } : {}),
      shipping: job.shipping,
    };
    const body = JSON.stringify(payload);
    const timestamp = unixSeconds(this.options.now?.() ?? new Date());
    const what = `the printer at ${this.options.endpoint}`;

    let response: SafeFetchResponse;
    try {
      response = await this.options.fetch(this.options.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': job.jobKey,
          ...this.signer.headers(webhookIdOf(job.jobKey), timestamp, body),
        },
        body,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxBytes: MAX_RESPONSE_BYTES,
        okStatuses: () => true, // every status is classified below, with the PSP's explanation
      });
    } catch (error) {
      if (error instanceof OutboundError) {
        throw new PrinterUnavailable(`${what} could not be reached for job ${job.jobKey}: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    }

    const { status } = response;
    if (status >= 200 && status < 300) {
      const jobId = jobIdFrom(response.body);
      if (jobId === undefined) {
        throw new PrinterUnavailable(
          `${what} answered HTTP ${status} for job ${job.jobKey} without a JSON {"jobId": string}`,
          { status },
        );
      }
      return { jobId };
    }
    const detail = explanation(response.body);
    const message = `${what} answered HTTP ${status} for job ${job.jobKey}${detail ? `: ${detail}` : ''}`;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      throw new PrinterRejectedJob(message, { status });
    }
    const retryAfterSeconds = retryAfterOf(response.headers['retry-after']);
    throw new PrinterUnavailable(message, {
      status,
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    });
  }

  /**
   * The partner's cancel: a signed POST to `<endpoint>/<jobId>/cancel` with `Idempotency-Key:
   * cancel:<jobKey>`. 2xx confirms; any other 4xx but 408/429 is the partner's refusal (production
   * started, unknown job) with its explanation; the rest means "ask again later".
   */
  async cancel(job: PrintJobRef): Promise<void> {
    const url = `${this.options.endpoint}/${encodeURIComponent(job.jobId)}/cancel`;
    const payload: HttpCancelBody = {
      jobKey: job.jobKey,
      jobId: job.jobId,
      orderId: job.orderId,
      projectId: job.projectId,
    };
    const body = JSON.stringify(payload);
    const key = `cancel:${job.jobKey}`;
    let response: SafeFetchResponse;
    try {
      response = await this.options.fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'idempotency-key': key,
          ...this.signer.headers(webhookIdOf(key), unixSeconds(this.options.now?.() ?? new Date()), body),
        },
        body,
        timeoutMs: this.options.timeoutMs ?? 30_000,
        maxBytes: MAX_RESPONSE_BYTES,
        okStatuses: () => true,
      });
    } catch (error) {
      if (error instanceof OutboundError)
        throw new PrinterUnavailable(
          `the printer at ${url} could not be reached to cancel job ${job.jobId}: ${error.message}`,
          { cause: error },
        );
      throw error;
    }
    const { status } = response;
    if (status >= 200 && status < 300) return;
    const detail = explanation(response.body);
    const message = `the printer answered HTTP ${status} to the cancel of job ${job.jobId}${detail ? `: ${detail}` : ''}`;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) throw new PrinterRefusedCancel(message);
    throw new PrinterUnavailable(message, { status });
  }
}

/** The JSON body of a cancel, POSTed to `<PRINTER_HTTP_URL>/<jobId>/cancel`. */
interface HttpCancelBody {
  jobKey: string;
  jobId: string;
  orderId: string;
  projectId: string;
}

/** The message id of a job's submission: the same on every retry, as Standard Webhooks asks. */
export function webhookIdOf(jobKey: string): string {
  return `msg_${createHash('sha256').update(jobKey).digest('base64url').slice(0, 32)}`;
}

function jobIdFrom(body: Buffer): string | undefined {
  try {
    const parsed = JSON.parse(body.toString('utf8')) as unknown;
    const jobId = (parsed as { jobId?: unknown } | null)?.jobId;
    return typeof jobId === 'string' && jobId.trim() !== '' && jobId.length <= MAX_JOB_ID_LENGTH ? jobId : undefined;
  } catch {
    return undefined;
  }
}

/** The PSP's reason, from a problem+json body or the start of a text body. */
function explanation(body: Buffer): string {
  const text = body.toString('utf8').trim();
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const field of ['detail', 'message', 'error', 'title']) {
      if (typeof parsed?.[field] === 'string' && parsed[field]) return (parsed[field] as string).slice(0, 300);
    }
  } catch {
    // not JSON: fall through to the text itself
  }
  return text.slice(0, 300);
}

function retryAfterOf(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
