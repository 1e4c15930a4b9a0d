import type { Environment } from '../domain/environment';
import { isPrinterName, type PARTNER_PRINTERS } from '../domain/print-routing';
import type { HttpPrinter } from './http-printer';
import type { LocalPrinter } from './local-printer';
import { PrinterRefusedCancel, PrinterRejectedJob, PrinterUnavailable, type Printer } from './printer';
import { recordPrinterError, type PrinterErrorReason } from '../metrics/work-metrics';
import type { SandboxPrinter } from './sandbox-printer';

/** Whose printer: partner printers are reached through the shop's own account per environment. */
interface PrinterScope {
  tenantId: string;
  env: Environment;
}

type PartnerName = (typeof PARTNER_PRINTERS)[number];

export interface PrinterRegistry {
  /** The printer for an order line no routing rule names: `dev` jobs always the sandbox printer, live jobs the configured one. */
  printerFor(job: { psp: string; env: Environment }): Printer;
  /** The name routing uses for that printer when a shop has no rules (`sandbox` in dev, PRINTER in prod). */
  defaultPrinterName(env: Environment): string;
  /**
   * The printer a routing rule names, or undefined when it cannot be reached here (`http` without
   * PRINTER_HTTP_URL, a partner the shop has no account with). In `dev` the built-ins `local` and
   * `http` are the sandbox printer: sandbox jobs never reach a print shop; partners answer with
   * their own sandbox.
   */
  printerNamed(name: string, scope: PrinterScope): Promise<Printer | undefined>;
}

export interface PrinterRegistryOptions {
  local: LocalPrinter;
  http?: HttpPrinter;
  sandbox: SandboxPrinter;
  /** Which printer takes live (`prod`) jobs (PRINTER). */
  defaultKind: 'local' | 'http';
  /**
   * The shop's printer at a print partner (its account, sealed, per environment), undefined when it
   * has none. The one place partner adapters join routing.
   */
  partnerPrinterFor?: (scope: PrinterScope, partner: PartnerName) => Promise<Printer | undefined>;
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
  const local = options.defaultKind === 'local' ? live : countingErrors(options.local);
  const http = options.defaultKind === 'http' ? live : options.http && countingErrors(options.http);
  const partnerPrinterFor = options.partnerPrinterFor;
  return {
    printerFor: ({ env }) => (env === 'dev' ? sandbox : live),
    defaultPrinterName: (env) => (env === 'dev' ? 'sandbox' : options.defaultKind),
    async printerNamed(name, scope) {
      if (!isPrinterName(name)) return undefined;
      if (name === 'sandbox') return sandbox;
      if (name === 'local') return scope.env === 'dev' ? sandbox : local;
      if (name === 'http') return scope.env === 'dev' ? sandbox : http;
      const partner = partnerPrinterFor && (await partnerPrinterFor(scope, name));
      return partner && countingErrors(partner);
    },
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
