import { printedPage } from '../../domain/book-spreads';
import { createReadStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Product } from '../../db/entities';
import type { Book } from '../../domain/book';
import type { PrintOutput, PrintPdf } from '../../domain/print-output';
import type { PrintWarning } from '../../domain/print-warning';
import type { FileStore } from '../../storage/file-store';
import { withScratchDir } from '../../storage/scratch-dir';
import { PrintRenderProcess } from '../../imaging/print/render-process';
import { writeBookPdf } from '../../imaging/print/book-pdf';
import { coverGeometry, coverSheetFormat, type CoverGeometry } from '../../imaging/print/cover-geometry';
import { coverSheetPreview } from '../../imaging/print/cover-sheet';
import { COVER_PDF_FILE, INTERIOR_PDF_FILE } from '../../imaging/print/manifest';
import { coverPreviewKeyOf } from '../orders/print-files';
import { timeRender } from '../../metrics/work-metrics';
import type { FaceBox } from '../../domain/face-box';
import { heicAsJpeg } from '../../imaging/heic';

/**
 * One book to render at print resolution, wherever its files go: an order line's folder (the
 * fulfilment flow) or a proof's (POST /v2/project/proof). Both render through here, so a proof's
 * files are the bytes the line would have rendered.
 */
export interface BookToRender {
  /** The folder of the page files (`pages/`), `cover.pdf`, `interior.pdf` and the cover preview. */
  prefix: string;
  /** Whose photo colour corrections the render process may reuse across its pages. */
  bookKey: string;
  book: Book;
  product: Pick<Product, 'specifications'>;
  colorCorrection: boolean;
  /** Each photo's stored original, by photo id. */
  originals: Map<string, string>;
  /** The faces found in each photo (Photo.faces), by photo id: automatic crops keep them in the safe area. */
  faces?: Map<string, FaceBox[]>;
  /** What the printer takes: the pages' colour and the PDFs' flavour. */
  output: PrintOutput;
}

/** The cover sheet of a book: the product's binding around the book's page count. */
export function geometryOfBook(product: Pick<Product, 'specifications'>, book: Book): CoverGeometry {
  const { specifications } = product;
  return coverGeometry(specifications.format, specifications.production, book.pages.length);
}

/** The two print files of a rendered book, as written. */
export interface AssembledBook {
  coverPdfKey: string;
  pdfKey: string;
  coverPdf: PrintPdf;
  interiorPdf: PrintPdf;
}

/** Renders books' pages in the print render process and assembles them into the print files. */
export class BookRenderer {
  constructor(
    private readonly files: FileStore,
    private readonly renderer = new PrintRenderProcess(),
  ) {}

  /**
   * Renders pages [from, to] (0: the cover sheet, sized for this book's page count), skipping
   * pages already in the store. The render process reads and writes local files: each page's
   * originals are fetched into a folder of this job, the page is rendered there and streamed into
   * the store, and the folder goes when the job ends, so the store may be on another machine.
   * Answers the photos that will print soft.
   */
  async renderPages(
    target: BookToRender,
    from: number,
    to: number,
  ): Promise<{ rendered: number; warnings: PrintWarning[] }> {
    const { files } = this;
    const { book } = target;
    const format = target.product.specifications.format;
    const warnings: PrintWarning[] = [];
    let rendered = 0;
    await withScratchDir(async (scratch) => {
      const photoFiles: Record<string, string> = {};
      const photoFaces: Record<string, FaceBox[]> = {};
      for (let number = from; number <= to; number++) {
        const key = pageKey(target.prefix, number);
        if (await files.exists(key)) continue;
        const photoIds =
          number === 0 ? [book.cover.photoId] : printedPage(book, number).photos.map((slot) => slot.photoId);
        for (const photoId of photoIds) {
          const original = photoId && target.originals.get(photoId);
          if (original && !photoFiles[photoId])
            photoFiles[photoId] = await printableFile(files, original, scratch, photoId);
          const faces = photoId && target.faces?.get(photoId);
          if (photoId && faces) photoFaces[photoId] = faces;
        }
        const outFile = path.join(scratch, `page-${number}.jpg`);
        const placements = await timeRender(number === 0 ? 'cover_sheet' : 'print_page', () =>
          this.renderer.render({
            bookKey: target.bookKey,
            format,
            colorCorrection: target.colorCorrection,
            outputProfile: target.output.profile,
            photoFiles,
            photoFaces,
            outFile,
            ...(number === 0
              ? { cover: { cover: book.cover, geometry: geometryOfBook(target.product, book) } }
              : { page: printedPage(book, number) }),
          }),
        );
        await files.putFrom(key, createReadStream(outFile));
        rendered++;
        for (const placement of placements) {
          if (placement.warning) {
            warnings.push({
              page: number === 0 ? 'cover' : number,
              photoId: placement.photoId,
              effectiveDpi: Math.round(placement.effectiveDpi),
              message: placement.warning,
            });
          }
        }
      }
    });
    return { rendered, warnings };
  }

  /** `cover.pdf` (the sheet, and a small preview of it) and `interior.pdf` (the pages), streamed from the page files. */
  async assemble(target: BookToRender): Promise<AssembledBook> {
    const { files } = this;
    const { prefix, book } = target;
    const format = target.product.specifications.format;
    const coverPdfKey = `${prefix}/${COVER_PDF_FILE}`;
    const pdfKey = `${prefix}/${INTERIOR_PDF_FILE}`;
    const title = book.cover.title;
    await files.put(coverPreviewKeyOf(coverPdfKey), await coverSheetPreview(await files.get(pageKey(prefix, 0))));
    const coverPdf = await writePdf(files, coverPdfKey, {
      format: coverSheetFormat(geometryOfBook(target.product, book), format.dpi),
      pages: readPages(files, [pageKey(prefix, 0)]),
      title,
      output: target.output,
    });
    const interiorPdf = await writePdf(files, pdfKey, {
      format,
      pages: readPages(files, interiorPageKeys(prefix, book)),
      title,
      output: target.output,
    });
    return { coverPdfKey, pdfKey, coverPdf, interiorPdf };
  }
}

/**
 * Page 0 is the cover sheet, `cover-sheet.jpg`: a name of its own, so a line rendered before cover
 * sheets existed (its front cover was `0000.jpg`, at the page size) renders its sheet afresh.
 * Interior pages keep their number.
 */
export function pageKey(prefix: string, number: number): string {
  return number === 0 ? `${prefix}/pages/cover-sheet.jpg` : `${prefix}/pages/${String(number).padStart(4, '0')}.jpg`;
}

export function interiorPageKeys(prefix: string, book: Book): string[] {
  return Array.from({ length: book.pages.length }, (_, n) => pageKey(prefix, n + 1));
}

/** Streams a book PDF into the store under `key`: it appears whole or not at all. */
async function writePdf(
  files: FileStore,
  key: string,
  options: Omit<Parameters<typeof writeBookPdf>[0], 'write'>,
): Promise<PrintPdf> {
  let pdf: PrintPdf | undefined;
  await files.putStreamed(key, async (write) => {
    pdf = await writeBookPdf({ ...options, write });
  });
  return pdf!;
}

/** Yields one page at a time: the PDF writer never holds more than the page it is writing. */
async function* readPages(files: FileStore, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield files.get(key);
}

/**
 * The file a photo is rendered from: its stored original, or for a HEIC (kept as uploaded, src/imaging/heic.ts)
 * the JPEG its pixels decode to, in the render's scratch folder. Photos analysed before HEICs were kept
 * have a decoded JPEG as their original already.
 */
async function printableFile(files: FileStore, originalKey: string, scratch: string, photoId: string): Promise<string> {
  const file = await files.localFile(originalKey, scratch);
  const decoded = await heicAsJpeg({ file });
  if (!decoded) return file;
  const jpeg = path.join(scratch, `${photoId}-decoded.jpg`);
  await writeFile(jpeg, decoded);
  return jpeg;
}
