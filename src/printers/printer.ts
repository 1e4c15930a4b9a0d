import { createHash } from 'node:crypto';
import type { PrintOutput } from '../domain/print-output';
import type { PartnerProductIds } from '../domain/print-partners';

/** What a printer needs to produce and ship one book (one order line). */
export interface PrintJob {
  /** Stable per order line (`${orderId}:${projectId}`): submitting the same job twice is one job. */
  jobKey: string;
  /** The client's order id. */
  orderId: string;
  projectId: string;
  psp: string;
  quantity: number;
  /** FileStore keys of the cover sheet PDF, the interior PDF and the manifest naming both. */
  coverPdfKey: string;
  pdfKey: string;
  manifestKey: string;
  /** The catalogue product (`sku`), its interior page count, and its id at each print partner (catalogue `partnerProducts`). */
  sku?: string;
  pageCount?: number;
  partnerProducts?: PartnerProductIds;
  /** The code of the market's shipping level the order ships with (`standard`, `express`, ...); absent where the market has none. */
  shippingLevel?: string;
  shipping: {
    name: string;
    line1: string;
    line2?: string;
    postcode: string;
    city?: string;
    state?: string;
    countryIso2: string;
    company?: string;
    phone?: string;
  };
  /** The buyer's e-mail, for couriers and the partners that require a contact (Lulu); the HTTP printer's protocol leaves it out. */
  contactEmail?: string;
}

export interface PrintSubmission {
  /** The printer's id of the job; its status events name it. */
  jobId: string;
}

/** A job the printer already holds, as a cancel names it. */
export interface PrintJobRef {
  jobId: string;
  jobKey: string;
  orderId: string;
  projectId: string;
}

/**
 * One way of handing print jobs to a print service provider. `submit` is idempotent per
 * `jobKey`: a retried or resumed submit of the same job returns the same jobId and creates no
 * second job.
 */
export interface Printer {
  readonly kind: string;
  /**
   * What the printer takes: its output profile and PDF/X flavour. The book's pages are converted to
   * the profile and its PDFs written in the flavour before the job is submitted.
   */
  readonly output: PrintOutput;
  submit(job: PrintJob): Promise<PrintSubmission>;
  /**
   * Withdraws a job the printer holds but has not started producing. Resolves once the printer
   * confirms (a repeated cancel of a cancelled job confirms again); throws `PrinterRefusedCancel`
   * when it is too late, `PrinterUnavailable` when the printer cannot be asked now.
   */
  cancel(job: PrintJobRef): Promise<void>;
}

/** The printer will not cancel the job (production has started, or it does not know the job). */
export class PrinterRefusedCancel extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PrinterRefusedCancel';
  }
}

/**
 * The printer refused the job for good (bad request, unknown product, invalid address): retrying
 * the same job cannot succeed. The fulfilment flow lists this name as non-retryable.
 */
export class PrinterRejectedJob extends Error {
  /** The HTTP status the printer answered, when it answered over HTTP. */
  readonly status?: number;

  constructor(message: string, options: { status?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrinterRejectedJob';
    if (options.status !== undefined) this.status = options.status;
  }
}

/** The printer could not take the job now (unreachable, timeout, 5xx, 408, 429): retry later. */
export class PrinterUnavailable extends Error {
  readonly status?: number;
  /** From the printer's Retry-After header, when it sent one. */
  readonly retryAfterSeconds?: number;

  constructor(message: string, options: { status?: number; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PrinterUnavailable';
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterSeconds !== undefined) this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/** A printer's job id derived from the job key alone, so every submit of a job names it alike. */
export function derivedJobId(prefix: string, jobKey: string): string {
  return `${prefix}-${createHash('sha256').update(jobKey).digest('hex').slice(0, 32)}`;
}
