import { createHash } from 'node:crypto';
import type { PrinterEventStatus } from '../domain/order-status';
import { derivedJobId, type Printer, type PrintJob, type PrintSubmission } from './printer';

/**
 * The statuses the sandbox printer walks every job through after accepting it, in order. The
 * fulfilment flow applies them on durable timers (SANDBOX_PRINTER_STEP); `delivering` carries
 * `sandboxTrackingUrl(jobId)`.
 */
export const SANDBOX_PRINTER_STEPS = ['accepted', 'printing', 'printed', 'delivering', 'complete'] as const satisfies readonly PrinterEventStatus[];

/** A tracking link for sandbox parcels, on a reserved `.example` domain that reaches no one. */
export function sandboxTrackingUrl(jobId: string): string {
  return `https://tracking.sandbox.example/${encodeURIComponent(jobId)}`;
}

/**
 * The parcels of a sandbox job, made up but plausible: a carrier, a tracking number of that
 * carrier's shape and the sandbox tracking URL, one parcel per 10 copies. Derived from the job id,
 * so every replay of the flow reports the same parcels.
 */
export function sandboxParcels(jobId: string, quantity = 1): { carrier: string; trackingNumber: string; trackingUrl: string }[] {
  const digits = createHash('sha256').update(jobId).digest().readBigUInt64BE().toString().padStart(20, '0');
  return Array.from({ length: Math.max(1, Math.ceil(quantity / 10)) }, (_, i) => {
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

  async submit(job: PrintJob): Promise<PrintSubmission> {
    return { jobId: derivedJobId('sandbox', job.jobKey) };
  }

  /**
   * Always confirms: the sandbox's production is the fulfilment flow's timed steps, which stop at
   * the cancelled line; once a step has moved the line to printing, the line's table refuses the cancel.
   */
  async cancel(): Promise<void> {}
}
