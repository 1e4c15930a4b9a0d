import type { Environment } from '../domain/environment';
import type { HttpPrinter } from './http-printer';
import type { LocalPrinter } from './local-printer';
import type { Printer } from './printer';
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
  const live: Printer | undefined = options.defaultKind === 'http' ? options.http : options.local;
  if (!live) throw new Error('the HTTP printer is the default (PRINTER=http) but none was configured');
  return {
    printerFor: ({ env }) => (env === 'dev' ? options.sandbox : live),
  };
}
