import { createHash } from 'node:crypto';
import type { PrinterEventStatus } from '../domain/order-status';
import { DEFAULT_PRINT_OUTPUT, type PrintOutput } from '../domain/print-output';
import { MAX_COPIES } from '../domain/limits';
import { derivedJobId, type Printer, type PrintJob, type PrintSubmission } from './printer';

/**
 * The statuses the sandbox printer walks every job through after accepting it, in order. The
 * fulfilment flow applies them on durable timers (SANDBOX_PRINTER_STEP); `delivering` carries
 * `sandboxTrackingUrl(jobId)`.
 */
export const SANDBOX_PRINTER_STEPS = [
  'accepted',
  'printing',
  'printed',
  'delivering',
  'complete',
] as const satisfies readonly PrinterEventStatus[];

/** A tracking link for sandbox parcels, on a reserved `.example` domain that reaches no one. */
export function sandboxTrackingUrl(jobId: string): string {
  return `https://tracking.sandbox.example/${encodeURIComponent(jobId)}`;
}

/** Copies a sandbox parcel holds. */
const COPIES_PER_PARCEL = 10;

/**
 * Parcels of one sandbox job at most: as many as the largest order line (MAX_COPIES) fills. A line
 * written before the bound existed (or any number a row holds) still makes a bounded list, so a
 * resumed flow never allocates in proportion to a client's number.
 */
export const MAX_SANDBOX_PARCELS = Math.ceil(MAX_COPIES / COPIES_PER_PARCEL);

/**
 * The parcels of a sandbox job, made up but plausible: a carrier, a tracking number of that
 * carrier's shape and the sandbox tracking URL, one parcel per 10 copies (at most
 * MAX_SANDBOX_PARCELS). Derived from the job id, so every replay of the flow reports the same parcels.
 */
export function sandboxParcels(
  jobId: string,
  quantity = 1,
): { carrier: string; trackingNumber: string; trackingUrl: string }[] {
  const digits = createHash('sha256').update(jobId).digest().readBigUInt64BE().toString().padStart(20, '0');
  const wanted = Number.isFinite(quantity) ? Math.ceil(quantity / COPIES_PER_PARCEL) : MAX_SANDBOX_PARCELS;
  return Array.from({ length: Math.min(MAX_SANDBOX_PARCELS, Math.max(1, wanted)) }, (_, i) => {
    const trackingNumber = `JJD${digits.slice(0, 15)}${String(i + 1).padStart(3, '0')}`;
    return { carrier: 'DHL', trackingNumber, trackingUrl: `${sandboxTrackingUrl(jobId)}?parcel=${trackingNumber}` };
  });
}

/**
 * The printer of `dev` credentials: accepts every job at once, prints and ships nothing, and does
 * no I/O. The jobId derives from the job key, so a repeated submit names the same job.
 */
export class SandboxPrinter implements Printer {
  readonly kind = 'sandbox' as const;

  /** The live printer's output, so a test order makes the files the live printer would get. */
  constructor(readonly output: PrintOutput = DEFAULT_PRINT_OUTPUT) {}

  async submit(job: PrintJob): Promise<PrintSubmission> {
    return { jobId: derivedJobId('sandbox', job.jobKey) };
  }

  /**
   * Always confirms: the sandbox's production is the fulfilment flow's timed steps, which stop at
   * the cancelled line; once a step has moved the line to printing, the line's table refuses the cancel.
   */
  async cancel(): Promise<void> {}
}
