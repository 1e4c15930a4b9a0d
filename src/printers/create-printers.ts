import type { Config } from '../config';
import type { SafeFetch } from '../outbound/safe-fetch';
import type { FileStore } from '../storage/file-store';
import { HttpPrinter } from './http-printer';
import { LocalPrinter } from './local-printer';
import { createPrinterRegistry, type PrinterRegistry, type PrinterRegistryOptions } from './printer-registry';
import { SandboxPrinter } from './sandbox-printer';

/**
 * The printers of a process, from configuration: PRINTER picks the live one; `dev` jobs use the
 * sandbox. Every one of them takes the files PRINT_OUTPUT_PROFILE and PRINT_PDFX describe.
 */
export function createPrinters(
  config: Pick<Config, 'dataDir' | 'printer' | 'printerHttp'> &
    Partial<Pick<Config, 'printOutput'>> & {
      durations: Pick<Config['durations'], 'printerFileUrlTtlMs'>;
    },
  files: FileStore,
  fetch: SafeFetch,
  /** The shops' partner printers (prodigi, gelato, lulu) that routing rules may name; none without it. */
  partnerPrinterFor?: PrinterRegistryOptions['partnerPrinterFor'],
): PrinterRegistry {
  const http = config.printerHttp
    ? new HttpPrinter({
        endpoint: config.printerHttp.url,
        signingSecret: config.printerHttp.secret,
        output: config.printOutput,
        timeoutMs: config.printerHttp.timeoutMs,
        fetch,
        fileUrl: (key) => files.url(key, config.durations.printerFileUrlTtlMs),
      })
    : undefined;
  return createPrinterRegistry({
    local: new LocalPrinter({ dataDir: config.dataDir, files, output: config.printOutput }),
    http,
    sandbox: new SandboxPrinter(config.printOutput),
    defaultKind: config.printer === 'http' ? 'http' : 'local',
    ...(partnerPrinterFor ? { partnerPrinterFor } : {}),
  });
}
