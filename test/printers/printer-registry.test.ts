import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSafeFetch } from '../../src/outbound/safe-fetch';
import { createPrinters } from '../../src/printers/create-printers';
import { HttpPrinter } from '../../src/printers/http-printer';
import { LocalPrinter } from '../../src/printers/local-printer';
import { PrinterUnavailable, type PrintJob } from '../../src/printers/printer';
import { metricsRegistry } from '../../src/metrics/registry';
import { createPrinterRegistry } from '../../src/printers/printer-registry';
import { SANDBOX_PRINTER_STEPS, SandboxPrinter, sandboxTrackingUrl } from '../../src/printers/sandbox-printer';
import { canMoveOrder } from '../../src/domain/order-status';
import { verifyPspEvent } from '../../src/printers/psp-webhooks';
import { signPspEvent } from '../support/psp-events';
import { FilesystemFileStore } from '../../src/storage/filesystem-file-store';

const SECRET = `whsec_${Buffer.from('registry-test-secret-of-32-bytes').toString('base64')}`;
const files = new FilesystemFileStore(path.join(os.tmpdir(), 'registry-files'), 'http://127.0.0.1:4000');
const fetch = createSafeFetch({ allowLoopback: true });
const local = new LocalPrinter({ dataDir: os.tmpdir(), files });
const http = new HttpPrinter({
  endpoint: 'http://127.0.0.1:9/jobs',
  signingSecret: SECRET,
  fetch,
  fileUrl: (key) => files.url(key),
});
const sandbox = new SandboxPrinter();

const JOB: PrintJob = {
  jobKey: 'order-uuid-1:project-1',
  orderId: 'shop-1',
  projectId: 'project-1',
  psp: 'acme',
  quantity: 1,
  coverPdfKey: 'a/cover.pdf',
  pdfKey: 'a/interior.pdf',
  manifestKey: 'a/manifest.json',
  shipping: { name: 'A', line1: 'B', postcode: '1', countryIso2: 'DE' },
};

describe('printer registry', () => {
  it('sends dev jobs to the sandbox whatever the default, live jobs to the default printer', () => {
    const viaLocal = createPrinterRegistry({ local, http, sandbox, defaultKind: 'local' });
    const viaHttp = createPrinterRegistry({ local, http, sandbox, defaultKind: 'http' });

    expect(viaLocal.printerFor({ psp: 'acme', env: 'dev' }).kind).toBe('sandbox');
    expect(viaHttp.printerFor({ psp: 'acme', env: 'dev' }).kind).toBe('sandbox');
    expect(viaLocal.printerFor({ psp: 'acme', env: 'prod' }).kind).toBe('local');
    expect(viaHttp.printerFor({ psp: 'acme', env: 'prod' }).kind).toBe('http');
  });

  it('resolves the printers routing rules name: built-ins here, sandbox for dev, partners only through their hook', async () => {
    const scope = { tenantId: '00000000-0000-4000-8000-000000000001', env: 'prod' as const };
    const withoutHttp = createPrinterRegistry({ local, sandbox, defaultKind: 'local' });
    expect((await withoutHttp.printerNamed('local', scope))?.kind).toBe('local');
    expect((await withoutHttp.printerNamed('sandbox', scope))?.kind).toBe('sandbox');
    expect(await withoutHttp.printerNamed('http', scope)).toBeUndefined();
    expect(await withoutHttp.printerNamed('prodigi', scope)).toBeUndefined();
    expect(await withoutHttp.printerNamed('acme', scope)).toBeUndefined();
    expect(withoutHttp.defaultPrinterName('prod')).toBe('local');
    expect(withoutHttp.defaultPrinterName('dev')).toBe('sandbox');

    const asked: unknown[] = [];
    const registry = createPrinterRegistry({
      local,
      http,
      sandbox,
      defaultKind: 'http',
      partnerPrinterFor: async (where, partner) => {
        asked.push([where, partner]);
        return partner === 'gelato' ? sandbox : undefined;
      },
    });
    expect((await registry.printerNamed('http', scope))?.kind).toBe('http');
    expect((await registry.printerNamed('local', scope))?.kind).toBe('local');
    // Sandbox jobs never reach a print shop through the built-ins.
    expect((await registry.printerNamed('http', { ...scope, env: 'dev' }))?.kind).toBe('sandbox');
    expect((await registry.printerNamed('local', { ...scope, env: 'dev' }))?.kind).toBe('sandbox');
    expect((await registry.printerNamed('gelato', scope))?.kind).toBe('sandbox');
    expect(await registry.printerNamed('lulu', scope)).toBeUndefined();
    expect(asked).toEqual([
      [scope, 'gelato'],
      [scope, 'lulu'],
    ]);
  });

  it('hands calls to the chosen printer and counts each error by printer, operation and reason', async () => {
    const registry = createPrinterRegistry({ local, http, sandbox, defaultKind: 'http' });
    const counted = async (labels: Record<string, string>) =>
      (await metricsRegistry.getSingleMetric('photobook_printer_errors_total')!.get()).values.find((value) =>
        Object.entries(labels).every(([key, label]) => value.labels[key] === label),
      )?.value ?? 0;
    const viaRegistry = await registry.printerFor({ psp: 'acme', env: 'dev' }).submit(JOB);
    expect(viaRegistry.jobId).toBe((await sandbox.submit(JOB)).jobId);
    const before = await counted({ printer: 'http', operation: 'submit', reason: 'unavailable' });
    // Nothing listens on port 9: the printer is down.
    await expect(registry.printerFor({ psp: 'acme', env: 'prod' }).submit(JOB)).rejects.toThrow(PrinterUnavailable);
    expect(await counted({ printer: 'http', operation: 'submit', reason: 'unavailable' })).toBe(before + 1);
    expect(await counted({ printer: 'sandbox' })).toBe(0);
  });

  it('refuses an HTTP default without an HTTP printer', () => {
    expect(() => createPrinterRegistry({ local, sandbox, defaultKind: 'http' })).toThrow(/PRINTER=http/);
  });

  it('is built from configuration by createPrinters', () => {
    const dataDir = os.tmpdir();
    const durations = { printerFileUrlTtlMs: 7 * 86_400_000 };
    const byLocal = createPrinters({ dataDir, printer: 'local', durations }, files, fetch);
    const byHttp = createPrinters(
      {
        dataDir,
        printer: 'http',
        printerHttp: { url: 'http://127.0.0.1:9/jobs', secret: SECRET, timeoutMs: 30_000 },
        durations,
      },
      files,
      fetch,
    );

    expect(byLocal.printerFor({ psp: 'local', env: 'prod' }).kind).toBe('local');
    expect(byHttp.printerFor({ psp: 'acme', env: 'prod' }).kind).toBe('http');
    expect(byHttp.printerFor({ psp: 'acme', env: 'dev' }).kind).toBe('sandbox');
  });
});

describe('sandbox printer', () => {
  it('accepts every job at once, with a jobId that is the same for the same job', async () => {
    const first = await sandbox.submit(JOB);
    expect(first.jobId).toMatch(/^sandbox-[0-9a-f]{32}$/);
    expect((await new SandboxPrinter().submit(JOB)).jobId).toBe(first.jobId);
    expect((await sandbox.submit({ ...JOB, jobKey: 'order-uuid-2:project-1' })).jobId).not.toBe(first.jobId);
  });

  it('walks accepted → printing → printed → delivering → complete, each step allowed after sent printjob', () => {
    expect(SANDBOX_PRINTER_STEPS).toEqual(['accepted', 'printing', 'printed', 'delivering', 'complete']);
    let status: (typeof SANDBOX_PRINTER_STEPS)[number] | 'sent printjob' = 'sent printjob';
    for (const step of SANDBOX_PRINTER_STEPS) {
      expect(canMoveOrder(status, step), `${status} → ${step}`).toBe(true);
      status = step;
    }
  });

  it('gives tracking links on a reserved .example domain that a printer event would carry', () => {
    const url = sandboxTrackingUrl('sandbox-abc');
    expect(url).toBe('https://tracking.sandbox.example/sandbox-abc');
    expect(new URL(sandboxTrackingUrl('a b/c')).pathname).toBe('/a%20b%2Fc');
    const body = JSON.stringify({ jobId: 'sandbox-abc', status: 'delivering', trackingUrl: url });
    expect(
      verifyPspEvent({ secret: SECRET, headers: signPspEvent({ secret: SECRET, id: 'e', body }), rawBody: body })
        .trackingUrl,
    ).toBe(url);
  });
});
