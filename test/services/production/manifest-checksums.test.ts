import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OrderLine } from '../../../src/db/entities';
import { printFilesPrefix } from '../../../src/services/orders/print-files';
import { startTestService, type TestService } from '../../support/harness';
import { post, serviceHeader } from '../../support/http';
import { editableProject, printBody } from '../../support/print-fixtures';
import { waitFor } from '../../support/wait';

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

interface Manifest {
  cover: { file: string; sha256: string; bytes: number; jpegSha256: string };
  interior: {
    file: string;
    sha256: string;
    bytes: number;
    pages: { bookPage: number; jpegSha256: string; jpegBytes: number }[];
  };
}

/** The JPEG placed on each page of a PDF, as embedded (DCTDecode: the stream is the JPEG file). */
async function embeddedJpegs(pdfBytes: Uint8Array): Promise<Buffer[]> {
  const doc = await PDFDocument.load(pdfBytes);
  return doc.getPages().map((page) => {
    const xObjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
    const stream = doc.context.lookup(xObjects.get(xObjects.keys()[0])) as PDFRawStream;
    return Buffer.from(stream.getContents());
  });
}

/**
 * The manifest describes the bytes that exist: every page checksum is the sha256 of the page file
 * in the store and of the page inside the PDF the printer got, every PDF checksum that of the PDF
 * stored and of the PDF in the printer's job folder (PRINTER=local). PDFKit's EXIF reader used to
 * swap bytes of each page JPEG in place before it was hashed, so no page checksum ever matched.
 */
describe('the print manifest of an order', () => {
  let api: TestService;
  let auth: Record<string, string>;

  beforeAll(async () => {
    api = await startTestService();
    auth = serviceHeader((await api.createClient('Checksum shop')).credentials.prod);
  });
  afterAll(() => api?.stop());

  it('has the checksums of the stored page files and of the files the printer received', async () => {
    const projectId = await editableProject(api, auth, { userId: 'checksums' });
    expect((await post(api.url, '/v2/print', printBody('sums-1', projectId), auth)).status).toBe(200);
    const orm = await api.orm();
    const lineOf = () =>
      orm.em.fork().findOneOrFail(OrderLine, { project: projectId }, { populate: ['order', 'order.client'] });
    await waitFor(async () => (await lineOf()).status === 'sent printjob', 120_000, 'sent printjob');
    const line = await lineOf();
    const stored = (key: string) => readFile(path.join(api.config.dataDir, 'files', key));
    const jobDir = path.join(api.config.dataDir, 'printjobs', 'sums-1', projectId);
    const sent = (file: string) => readFile(path.join(jobDir, file));

    const manifest = JSON.parse((await sent('manifest.json')).toString('utf8')) as Manifest;
    expect(sha256(await sent('manifest.json'))).toBe(sha256(await stored(line.manifestKey!)));

    for (const [entry, key] of [
      [manifest.cover, line.coverPdfKey!],
      [manifest.interior, line.pdfKey!],
    ] as const) {
      const printerCopy = await sent(entry.file);
      expect(entry.sha256, entry.file).toBe(sha256(await stored(key)));
      expect(entry.sha256, entry.file).toBe(sha256(printerCopy));
      expect(entry.bytes, entry.file).toBe(printerCopy.length);
    }

    const prefix = printFilesPrefix(line);
    const coverSheet = await stored(`${prefix}/pages/cover-sheet.jpg`);
    expect(manifest.cover.jpegSha256).toBe(sha256(coverSheet));
    expect((await embeddedJpegs(await sent('cover.pdf'))).map(sha256)).toEqual([sha256(coverSheet)]);

    const interior = await embeddedJpegs(await sent('interior.pdf'));
    expect(manifest.interior.pages).toHaveLength(line.pageCount!);
    expect(interior).toHaveLength(line.pageCount!);
    for (const [i, page] of manifest.interior.pages.entries()) {
      const file = await stored(`${prefix}/pages/${String(page.bookPage).padStart(4, '0')}.jpg`);
      expect(page.jpegSha256, `page ${page.bookPage}`).toBe(sha256(file));
      expect(page.jpegBytes, `page ${page.bookPage}`).toBe(file.length);
      expect(sha256(interior[i]), `page ${page.bookPage} in interior.pdf`).toBe(page.jpegSha256);
    }
  }, 180_000);
});
