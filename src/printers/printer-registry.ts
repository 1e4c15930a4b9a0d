import type { Environment } from '../domain/environment';
import type { HttpPrinter } from './http-printer';
import type { LocalPrinter } from './local-printer';
import { PrinterRefusedCancel, PrinterRejectedJob, PrinterUnavailable, type Printer } from './printer';
import { recordPrinterError, type PrinterErrorReason } from '../metrics/work-metrics';
import type { SandboxPrinter } from './sandbox-printer';

export interface PrinterRegistry {
  /** The printer for an order line: `dev` jobs always the sandbox printer, live jobs the configured one. */
  printerFor(job: { psp: string; env: Environment }): Printer;
}

export interface PrinterRegistryOptions {
  local: LocalPrinter;
  http?: HttpPrinter;
  sandbox: SandboxPrinter;
  /** Which printer takes live (`prod`) jobs (PRINTER). */
  defaultKind: 'local' | 'http';
}

/**
 * Picks the printer per job. Every live job goes to `defaultKind` whatever its psp: one service
 * instance talks to one PSP integration (the psp name travels in the job). Asking for the HTTP
 * printer without one is a configuration error, caught when the registry is built.
 */
export function createPrinterRegistry(options: PrinterRegistryOptions): PrinterRegistry {
  const configured: Printer | undefined = options.defaultKind === 'http' ? options.http : options.local;
  if (!configured) throw new Error('the HTTP printer is the default (PRINTER=http) but none was configured');
  const live = countingErrors(configured);
  const sandbox = countingErrors(options.sandbox);
  return {
    printerFor: ({ env }) => (env === 'dev' ? sandbox : live),
  };
}

/**
 * The printer, each error of its calls counted by printer kind, operation and reason
 * (photobook_printer_errors_total).
 */
function countingErrors(printer: Printer): Printer {
  const counted = async <T>(operation: 'submit' | 'cancel', call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      recordPrinterError(printer.kind, operation, reasonOf(error));
      throw error;
    }
  };
  return {
    kind: printer.kind,
    output: printer.output,
    submit: (job) => counted('submit', () => printer.submit(job)),
    cancel: (job) => counted('cancel', () => printer.cancel(job)),
  };
}

function reasonOf(error: unknown): PrinterErrorReason {
  if (error instanceof PrinterRejectedJob) return 'rejected';
  if (error instanceof PrinterUnavailable) return 'unavailable';
  if (error instanceof PrinterRefusedCancel) return 'refused_cancel';
  return 'other';
}
