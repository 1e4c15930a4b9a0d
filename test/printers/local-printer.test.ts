import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalPrinter } from '../../src/printers/local-printer';
import { PrinterRefusedCancel, type PrintJob } from '../../src/printers/printer';
import { FilesystemFileStore } from '../../src/storage/filesystem-file-store';

const PDF = Buffer.from('%PDF-1.7\n% a book\n%%EOF\n');
const COVER = Buffer.from('%PDF-1.7\n% a cover sheet\n%%EOF\n');
const MANIFEST = Buffer.from(JSON.stringify({ pages: 24, sku: 'PB-HC-A4-P' }));

function jobFor(overrides: Partial<PrintJob> = {}): PrintJob {
  return {
    jobKey: 'order-uuid-1:project-1',
    orderId: 'shop-1001',
    projectId: 'project-1',
    psp: 'local',
    quantity: 2,
    coverPdfKey: 'c1/prod/orders/order-uuid-1/project-1/cover.pdf',
    pdfKey: 'c1/prod/orders/order-uuid-1/project-1/interior.pdf',
    manifestKey: 'c1/prod/orders/order-uuid-1/project-1/manifest.json',
    shipping: {
      name: 'Ada Lovelace',
      line1: 'Unter den Linden 1',
      postcode: '10117',
      city: 'Berlin',
      countryIso2: 'DE',
    },
    ...overrides,
  };
}

describe('LocalPrinter', () => {
  let dataDir: string;
  let files: FilesystemFileStore;
  let printer: LocalPrinter;

  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'local-printer-'));
    files = new FilesystemFileStore(path.join(dataDir, 'files'), 'http://127.0.0.1:4000');
    await files.put(jobFor().coverPdfKey, COVER);
    await files.put(jobFor().pdfKey, PDF);
    await files.put(jobFor().manifestKey, MANIFEST);
    printer = new LocalPrinter({ dataDir, files });
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  const jobDir = path.join('printjobs', 'shop-1001', 'project-1');

  it('writes cover.pdf, interior.pdf, manifest.json and job.json under DATA_DIR/printjobs/<orderId>/<projectId>', async () => {
    const { jobId } = await printer.submit(jobFor());

    expect(jobId).toMatch(/^local-[0-9a-f]{32}$/);
    const dir = path.join(dataDir, jobDir);
    expect((await readdir(dir)).sort()).toEqual(['cover.pdf', 'interior.pdf', 'job.json', 'manifest.json']);
    expect(await readFile(path.join(dir, 'cover.pdf'))).toEqual(COVER);
    expect(await readFile(path.join(dir, 'interior.pdf'))).toEqual(PDF);
    expect(await readFile(path.join(dir, 'manifest.json'))).toEqual(MANIFEST);
    const record = JSON.parse(await readFile(path.join(dir, 'job.json'), 'utf8'));
    expect(record).toEqual({ ...jobFor(), jobId, submittedAt: expect.any(String) });
    expect(Date.now() - Date.parse(record.submittedAt)).toBeLessThan(60_000);
  });

  it('answers a repeated submit with the recorded jobId and leaves the job folder untouched', async () => {
    const first = await printer.submit(jobFor());
    const dir = path.join(dataDir, jobDir);
    const before = await Promise.all(
      ['cover.pdf', 'interior.pdf', 'manifest.json', 'job.json'].map((f) => stat(path.join(dir, f))),
    );
    const jobJson = await readFile(path.join(dir, 'job.json'), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Even if the source changed meanwhile, the job already handed over is what stays.
    await files.put(jobFor().pdfKey, Buffer.from('%PDF-1.7\n% another book\n'));

    const second = await new LocalPrinter({ dataDir, files }).submit(jobFor());

    expect(second.jobId).toBe(first.jobId);
    const after = await Promise.all(
      ['cover.pdf', 'interior.pdf', 'manifest.json', 'job.json'].map((f) => stat(path.join(dir, f))),
    );
    expect(after.map((s) => s.mtimeMs)).toEqual(before.map((s) => s.mtimeMs));
    expect(await readFile(path.join(dir, 'job.json'), 'utf8')).toBe(jobJson);
    expect(await readFile(path.join(dir, 'cover.pdf'))).toEqual(COVER);
    expect(await readFile(path.join(dir, 'interior.pdf'))).toEqual(PDF);
  });

  it('records one job when the same job is submitted concurrently, leaving no temp files', async () => {
    const results = await Promise.all([printer.submit(jobFor()), printer.submit(jobFor()), printer.submit(jobFor())]);

    expect(new Set(results.map((r) => r.jobId)).size).toBe(1);
    expect((await readdir(path.join(dataDir, jobDir))).sort()).toEqual([
      'cover.pdf',
      'interior.pdf',
      'job.json',
      'manifest.json',
    ]);
  });

  it('cancels a job by writing cancel.json beside it, and refuses once the print shop wrote started.json', async () => {
    const job = jobFor();
    const { jobId } = await printer.submit(job);
    const ref = { jobId, jobKey: job.jobKey, orderId: job.orderId, projectId: job.projectId };
    await printer.cancel(ref);
    expect(JSON.parse(await readFile(path.join(printer.jobDir(job), 'cancel.json'), 'utf8'))).toMatchObject({ jobId });
    await writeFile(path.join(printer.jobDir(job), 'started.json'), '{}');
    await expect(printer.cancel(ref)).rejects.toBeInstanceOf(PrinterRefusedCancel);
  });

  it('gives different jobs different ids', async () => {
    await files.put('c1/prod/orders/order-uuid-1/project-2/cover.pdf', COVER);
    await files.put('c1/prod/orders/order-uuid-1/project-2/interior.pdf', PDF);
    await files.put('c1/prod/orders/order-uuid-1/project-2/manifest.json', MANIFEST);
    const a = await printer.submit(jobFor());
    const b = await printer.submit(
      jobFor({
        jobKey: 'order-uuid-1:project-2',
        projectId: 'project-2',
        coverPdfKey: 'c1/prod/orders/order-uuid-1/project-2/cover.pdf',
        pdfKey: 'c1/prod/orders/order-uuid-1/project-2/interior.pdf',
        manifestKey: 'c1/prod/orders/order-uuid-1/project-2/manifest.json',
      }),
    );
    expect(a.jobId).not.toBe(b.jobId);
  });

  it('keeps a client order id with path characters inside printjobs/', async () => {
    const { jobId } = await printer.submit(jobFor({ orderId: '../../escape/1001', jobKey: 'order-uuid-9:project-1' }));

    const top = await readdir(path.join(dataDir, 'printjobs'));
    expect(top).toHaveLength(1);
    expect(top[0]).not.toContain('/');
    expect(top[0]).toMatch(/^escape_1001~[0-9a-f]{16}$/);
    expect((await readdir(dataDir)).sort()).toEqual(['files', 'printjobs']);
    const record = JSON.parse(await readFile(path.join(dataDir, 'printjobs', top[0], 'project-1', 'job.json'), 'utf8'));
    expect(record).toMatchObject({ jobId, orderId: '../../escape/1001' });
  });

  it('records nothing when the print file is missing, so a retry can succeed', async () => {
    const job = jobFor({ pdfKey: 'c1/prod/orders/order-uuid-1/project-1/missing.pdf' });

    await expect(printer.submit(job)).rejects.toThrow(/pdfKey .*missing.pdf.*: no such file in the store/);
    const dir = path.join(dataDir, jobDir);
    expect(await readdir(dir)).toEqual([]);

    await files.put(job.pdfKey, PDF);
    const { jobId } = await printer.submit(job);
    expect(jobId).toMatch(/^local-/);
    expect((await readdir(dir)).sort()).toEqual(['cover.pdf', 'interior.pdf', 'job.json', 'manifest.json']);
  });

  it('refuses another job in a folder that already holds one', async () => {
    await printer.submit(jobFor());
    await expect(printer.submit(jobFor({ jobKey: 'other-order-uuid:project-1' }))).rejects.toThrow(
      /already holds job "order-uuid-1:project-1"/,
    );
  });
});
