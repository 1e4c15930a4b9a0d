import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/**
 * What the service records as its work happens: renders, flow give-ups, webhook outcomes, printer
 * errors. Every label takes values from a short fixed list (never a tenant, an order or a URL), so
 * the series count stays bounded however many clients the service has.
 */

/** A page at print resolution, the cover sheet, the PDFs of an order line, a project's cover preview. */
export type RenderKind = 'print_page' | 'cover_sheet' | 'print_files' | 'cover_preview';

const renderDuration = new Histogram({
  name: 'photobook_render_duration_seconds',
  help: 'Render durations by kind (print_page, cover_sheet, print_files, cover_preview), failed renders included',
  labelNames: ['kind'],
  buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160],
  registers: [metricsRegistry],
});
const renderFailures = new Counter({
  name: 'photobook_render_failures_total',
  help: 'Renders that threw, by kind; the flow may retry them',
  labelNames: ['kind'],
  registers: [metricsRegistry],
});

/** Times one render into its kind's histogram, counting it as failed when it throws. */
export async function timeRender<T>(kind: RenderKind, render: () => Promise<T>): Promise<T> {
  const stop = renderDuration.startTimer({ kind });
  try {
    return await render();
  } catch (error) {
    renderFailures.inc({ kind });
    throw error;
  } finally {
    stop();
  }
}

/**
 * `gave_up`: the flow ended its work as failed (a failed project, line, campaign or delivery);
 * `error`: the run itself threw.
 */
export type FlowFailure = 'gave_up' | 'error';

const flowFailures = new Counter({
  name: 'photobook_flow_failures_total',
  help:
    'Flow runs that failed, by flow name and reason ' +
    '(gave_up: retries spent, the work is failed; error: the run threw)',
  labelNames: ['flow', 'reason'],
  registers: [metricsRegistry],
});

export function recordFlowFailure(flow: string, reason: FlowFailure): void {
  flowFailures.inc({ flow, reason });
}

/** One attempt answered 2xx; one attempt did not; retries are spent and the delivery is failed. */
export type WebhookOutcome = 'delivered' | 'failed_attempt' | 'gave_up';

const webhookDeliveries = new Counter({
  name: 'photobook_webhook_deliveries_total',
  help: 'Webhook delivery attempts and give-ups by outcome (delivered, failed_attempt, gave_up)',
  labelNames: ['outcome'],
  registers: [metricsRegistry],
});

export function recordWebhookOutcome(outcome: WebhookOutcome): void {
  webhookDeliveries.inc({ outcome });
}

/**
 * rejected: refused for good; unavailable: try later; refused_cancel: too late to cancel;
 * other: anything else thrown.
 */
export type PrinterErrorReason = 'rejected' | 'unavailable' | 'refused_cancel' | 'other';

const printerErrors = new Counter({
  name: 'photobook_printer_errors_total',
  help: 'Errors of calls to a printer, by printer kind, operation (submit, cancel) and reason',
  labelNames: ['printer', 'operation', 'reason'],
  registers: [metricsRegistry],
});

export function recordPrinterError(printer: string, operation: 'submit' | 'cancel', reason: PrinterErrorReason): void {
  printerErrors.inc({ printer, operation, reason });
}
