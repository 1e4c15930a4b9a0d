import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PDFDict, PDFDocument, PDFName, type PDFRawStream } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jpegSize, writeBookPdf } from '../../../src/imaging/print/book-pdf';
import { buildManifest } from '../../../src/imaging/print/manifest';
import { coverGeometry, coverSheetFormat } from '../../../src/imaging/print/cover-geometry';
import { pagePixels } from '../../../src/imaging/print/print-geometry';
import type { ProductProduction } from '../../../src/domain/print-production';
import { FilesystemFileStore } from '../../../src/storage/filesystem-file-store';
import { A4 } from './print-images';

/** A4 + 3 mm bleed: 216 x 303 mm = 612.28 x 858.90 pt, 2551 x 3579 px at 300 DPI. */
const MEDIA_PT = { width: (216 / 25.4) * 72, height: (303 / 25.4) * 72 };
const TRIM_PT = { x: (3 / 25.4) * 72, width: (210 / 25.4) * 72, height: (297 / 25.4) * 72 };
const PAGE_PX = { width: 2551, height: 3579 };
const HARDCOVER: ProductProduction = {
  binding: 'hardcover',
  leafThicknessMm: 0.15,
  boardThicknessMm: 2.5,
  wrapMm: 15,
  hingeMm: 8,
  spineTextMinPages: 32,
};

let dir: string;
let pages: Buffer[];

async function* iterate(buffers: Buffer[]): AsyncGenerator<Buffer> {
  for (const buffer of buffers) yield buffer;
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest('hex');

type BookPdfOptions = Omit<Parameters<typeof writeBookPdf>[0], 'write'>;

/** Writes the PDF through a real store's streamed write, as production does; `watch` sees each chunk. */
async function writeToStore(name: string, options: BookPdfOptions, watch?: (chunk: Buffer) => void) {
  const store = new FilesystemFileStore(dir, 'http://127.0.0.1:4000');
  let result: Awaited<ReturnType<typeof writeBookPdf>> | undefined;
  await store.putStreamed(name, async (write) => {
    result = await writeBookPdf({
      ...options,
      write: (chunk) => {
        watch?.(chunk);
        return write(chunk);
      },
    });
  });
  return result!;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'book-pdf-'));
  // Four distinct full-bleed pages with detail, as the renderer makes them (JPEG, 300 DPI).
  pages = await Promise.all(
    ['#c03030', '#30a040', '#3050c0', '#e0c020'].map((colour) =>
      sharp({ create: { ...PAGE_PX, channels: 3, background: colour } })
        .composite([
          { input: { create: { width: 800, height: 800, channels: 3, background: '#ffffff' } }, left: 400, top: 400 },
        ])
        .jpeg({ quality: 92 })
        .withDensity(300)
        .toBuffer(),
    ),
  );
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeBookPdf', () => {
  it('writes one A4-with-bleed page per JPEG, TrimBox the finished A4, images at 300 DPI embedded as they are', async () => {
    const file = path.join(dir, 'book.pdf');
    const result = await writeToStore('book.pdf', { format: A4, pages: iterate(pages) });
    const bytes = await readFile(file);
    expect(result.pageCount).toBe(4);
    expect(result.bytes).toBe(bytes.length);
    expect(result.sha256).toBe(sha256(bytes));
    expect(result.pages.map((p) => p.sha256)).toEqual(pages.map(sha256));
    expect(result.mediaBox.widthPt).toBeCloseTo(MEDIA_PT.width, 3);

    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(4);
    for (const [index, page] of pdf.getPages().entries()) {
      const media = page.getMediaBox();
      expect([media.x, media.y]).toEqual([0, 0]);
      expect(media.width).toBeCloseTo(MEDIA_PT.width, 2);
      expect(media.height).toBeCloseTo(MEDIA_PT.height, 2);
      const trim = page.getTrimBox();
      expect(trim.x).toBeCloseTo(TRIM_PT.x, 2);
      expect(trim.y).toBeCloseTo(TRIM_PT.x, 2);
      expect(trim.width).toBeCloseTo(TRIM_PT.width, 2);
      expect(trim.height).toBeCloseTo(TRIM_PT.height, 2);
      expect(page.getBleedBox()).toEqual(media);

      const xObjects = page.node.Resources()!.lookup(PDFName.of('XObject'), PDFDict);
      expect(xObjects.keys()).toHaveLength(1);
      const image = pdf.context.lookup(xObjects.get(xObjects.keys()[0])) as PDFRawStream;
      const width = Number(image.dict.get(PDFName.of('Width'))!.toString());
      const height = Number(image.dict.get(PDFName.of('Height'))!.toString());
      expect([width, height]).toEqual([PAGE_PX.width, PAGE_PX.height]);
      // Pixels per inch of the page: 2551 px over 216 mm.
      expect(width / (media.width / 72)).toBeCloseTo(300, 0);
      expect(height / (media.height / 72)).toBeCloseTo(300, 0);
      expect(image.dict.get(PDFName.of('Filter'))!.toString()).toBe('/DCTDecode');
      expect(sha256(image.contents)).toBe(sha256(pages[index])); // not re-encoded
    }
  });

  it('streams: each page is written before the next page is read, and the file appears whole', async () => {
    const file = path.join(dir, 'streamed.pdf');
    let written = 0;
    const observed: { page: number; written: number; imagesSoFar: number; finalExists: boolean }[] = [];
    async function* watched(): AsyncGenerator<Buffer> {
      let imagesSoFar = 0;
      for (const [page, jpeg] of pages.entries()) {
        if (page > 0) observed.push({ page, written, imagesSoFar, finalExists: existsSync(file) });
        imagesSoFar += jpeg.length;
        yield jpeg;
      }
    }
    await writeToStore('streamed.pdf', { format: A4, pages: watched() }, (chunk) => (written += chunk.length));
    expect(observed).toHaveLength(3);
    for (const o of observed) {
      expect(o.written).toBeGreaterThanOrEqual(o.imagesSoFar);
      expect(o.finalExists).toBe(false);
    }
    expect((await readdir(dir)).filter((name) => name.startsWith('streamed.pdf.'))).toEqual([]);
    expect((await PDFDocument.load(await readFile(file))).getPageCount()).toBe(4);
  });

  it("refuses a page that is not the format's pixel size, leaving no file behind", async () => {
    const file = path.join(dir, 'wrong.pdf');
    const small = await sharp({ create: { width: 1276, height: 1789, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    await expect(writeToStore('wrong.pdf', { format: A4, pages: iterate([pages[0], small]) })).rejects.toThrow(
      /page 2 is 1276x1789 px; the format needs 2551x3579 px/,
    );
    expect(existsSync(file)).toBe(false);
    expect((await readdir(dir)).filter((name) => name.startsWith('wrong.pdf'))).toEqual([]);
    await expect(writeToStore('wrong.pdf', { format: A4, pages: iterate([]) })).rejects.toThrow(/at least one page/);
    await expect(
      writeToStore('wrong.pdf', { format: A4, pages: iterate([Buffer.from('not a jpeg')]) }),
    ).rejects.toThrow(/not a JPEG/);
    expect(existsSync(file)).toBe(false);
  });

  it("reads a JPEG's size and colour components from its header", async () => {
    expect(jpegSize(pages[0])).toEqual({ ...PAGE_PX, components: 3 });
    const progressive = await sharp({ create: { width: 321, height: 123, channels: 3, background: '#000' } })
      .jpeg({ progressive: true })
      .toBuffer();
    expect(jpegSize(progressive)).toEqual({ width: 321, height: 123, components: 3 });
    const cmyk = await sharp({ create: { width: 32, height: 12, channels: 3, background: '#000' } })
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    expect(jpegSize(cmyk)).toEqual({ width: 32, height: 12, components: 4 });
  });
});

describe('buildManifest', () => {
  it("names cover.pdf and interior.pdf with their sizes in mm, pt and px, their checksums and each page's", async () => {
    const geometry = coverGeometry(A4, HARDCOVER, 2);
    const sheet = coverSheetFormat(geometry, A4.dpi);
    const sheetPx = pagePixels(sheet);
    const sheetJpeg = await sharp({
      create: { width: sheetPx.width, height: sheetPx.height, channels: 3, background: '#2f3b48' },
    })
      .jpeg()
      .toBuffer();
    const coverFile = path.join(dir, 'manifest-cover.pdf');
    const interiorFile = path.join(dir, 'manifest-interior.pdf');
    const coverPdf = await writeToStore('manifest-cover.pdf', { format: sheet, pages: iterate([sheetJpeg]) });
    const interiorPdf = await writeToStore('manifest-interior.pdf', { format: A4, pages: iterate(pages.slice(0, 2)) });
    const warnings = [
      {
        page: 2,
        photoId: 'p1',
        effectiveDpi: 120,
        message: 'low resolution: 120 DPI on paper, prints pixelated (aim for 300)',
      },
    ];
    const manifest = buildManifest({
      orderId: 'o-1',
      projectId: 'p-1',
      sku: 'A4-HC',
      quantity: 2,
      format: A4,
      geometry,
      coverPdf,
      interiorPdf,
      warnings,
      createdAt: new Date('2024-07-01T10:00:00Z'),
    });
    // 2 pages: spine 0.15 + 2 x 2.5 = 5.15 mm; sheet 2 x (3 + 15 + 210 + 8) + 5.15 = 477.15 x 333 mm.
    expect(manifest).toEqual({
      orderId: 'o-1',
      projectId: 'p-1',
      sku: 'A4-HC',
      quantity: 2,
      binding: 'hardcover',
      dpi: 300,
      bleedMm: 3,
      cover: {
        file: 'cover.pdf',
        bytes: (await stat(coverFile)).size,
        sha256: sha256(await readFile(coverFile)),
        pageCount: 1,
        trim: {
          widthMm: 471.15,
          heightMm: 327,
          widthPt: 1335.54,
          heightPt: 926.93,
          widthPx: sheetPx.width - 2 * sheetPx.bleed,
          heightPx: sheetPx.height - 2 * sheetPx.bleed,
        },
        media: { widthMm: 477.15, heightMm: 333, widthPt: 1352.55, heightPt: 943.94, widthPx: 5636, heightPx: 3933 },
        pdfx: 'PDF/X-4',
        outputProfile: { description: 'sRGB', colourSpace: 'RGB' },
        geometry,
        jpegSha256: sha256(sheetJpeg),
      },
      interior: {
        file: 'interior.pdf',
        bytes: (await stat(interiorFile)).size,
        sha256: sha256(await readFile(interiorFile)),
        pageCount: 2,
        trim: { widthMm: 210, heightMm: 297, widthPt: 595.28, heightPt: 841.89, widthPx: 2481, heightPx: 3509 },
        media: { widthMm: 216, heightMm: 303, widthPt: 612.28, heightPt: 858.9, widthPx: 2551, heightPx: 3579 },
        pdfx: 'PDF/X-4',
        outputProfile: { description: 'sRGB', colourSpace: 'RGB' },
        pages: pages
          .slice(0, 2)
          .map((jpeg, i) => ({ pdfPage: i + 1, bookPage: i + 1, jpegSha256: sha256(jpeg), jpegBytes: jpeg.length })),
      },
      warnings,
      createdAt: '2024-07-01T10:00:00.000Z',
    });
  });
});
