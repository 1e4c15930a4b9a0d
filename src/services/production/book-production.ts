import { createReadStream } from 'node:fs';
import path from 'node:path';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { OrderLine, Photo, type Order } from '../../db/entities';
import type { PrintWarning } from '../../domain/print-warning';
import type { OrderStatus } from '../../domain/order-status';
import { moveProject } from '../../domain/project-status';
import type { FileStore } from '../../storage/file-store';
import { withScratchDir } from '../../storage/scratch-dir';
import type { PrinterRegistry } from '../../printers/printer-registry';
import type { PrintJob } from '../../printers/printer';
import { SANDBOX_PRINTER_STEPS, sandboxParcels, sandboxTrackingUrl } from '../../printers/sandbox-printer';
import type { Parcel } from '../../domain/parcel';
import { PrintRenderProcess } from '../../imaging/print/render-process';
import { writeBookPdf, type BookPdf } from '../../imaging/print/book-pdf';
import { coverGeometry, coverSheetFormat, type CoverGeometry } from '../../imaging/print/cover-geometry';
import { coverSheetPreview } from '../../imaging/print/cover-sheet';
import { buildManifest, COVER_PDF_FILE, INTERIOR_PDF_FILE } from '../../imaging/print/manifest';
import { coverPreviewKeyOf, printFilesPrefix } from '../orders/print-files';
import { printJobKeyOf } from '../orders/printer-job-match';
import { recordProjectStatus } from '../projects/project-events';
import { timeRender } from '../../metrics/work-metrics';

export interface BookProductionDeps {
  files: FileStore;
  printers: PrinterRegistry;
  log: Logger;
}

/**
 * Producing one order line's book, from its built book to the printer: plan the pages, render the
 * cover sheet and the interior pages, build `cover.pdf`, `interior.pdf` and the manifest, hand them
 * to the printer. Every step takes an EntityManager scoped to the line's tenant and is idempotent:
 * rendered pages, the PDFs and the manifest are files keyed by order, project and page, skipped
 * when present; the printer dedupes by job key; status moves that already happened are no-ops.
 */
export class BookProduction {
  private readonly renderer = new PrintRenderProcess();

  constructor(private readonly deps: BookProductionDeps) {}

  /**
   * The line's book, claimed for printing: ready, the book is built and its project moves on to
   * `ordering` (from `editable`; already there, a no-op); pending: still building, or failed until
   * rebuilt; gone: deleted meanwhile.
   */
  async claimBookForOrdering(em: EntityManager, lineId: string): Promise<{ state: 'ready' | 'pending' | 'gone' }> {
    const line = await em.findOneOrFail(
      OrderLine,
      { id: lineId },
      { populate: ['order', 'project', 'project.owner', 'project.book'] },
    );
    const project = line.project;
    if (project.status === 'deleted') return { state: 'gone' };
    // A failed build waits for its rebuild (`project rebuild`), never prints the book it had before.
    if (project.status === 'created' || project.status === 'building' || project.status === 'failed' || !project.book)
      return { state: 'pending' };
    if (project.status === 'editable') {
      await em.transactional(async (tx) => {
        moveProject(project, 'ordering');
        await recordProjectStatus(tx, project);
      });
    }
    return { state: 'ready' };
  }

  /** Interior pages to render; page 0 is the cover sheet. */
  async planRender(em: EntityManager, lineId: string): Promise<{ pages: number }> {
    const line = await loadLine(em, lineId);
    return { pages: line.project.book?.pages.length ?? 0 };
  }

  /**
   * Renders pages [from, to] at print resolution (0: the cover sheet, sized for this book's page
   * count), skipping pages already in the store, and records the photos that will print soft on
   * the line. The render process reads and writes local files: each page's originals are fetched
   * into a folder of this job, the page is rendered there and streamed into the store, and the
   * folder goes when the job ends, so the store may be on another machine.
   */
  async renderPages(em: EntityManager, lineId: string, from: number, to: number): Promise<{ rendered: number }> {
    const { files } = this.deps;
    const line = await loadLine(em, lineId);
    const { project } = line;
    const book = project.book!;
    const format = project.product.specifications.format;
    const prefix = printFilesPrefix(line);
    const colorCorrection = line.metadata.colorCorrection === true;
    const originals = new Map<string, string>();
    for (const photo of await em.find(Photo, { project }))
      if (photo.originalKey) originals.set(photo.id, photo.originalKey);
    const warnings: PrintWarning[] = [];
    let rendered = 0;
    await withScratchDir(async (scratch) => {
      const photoFiles: Record<string, string> = {};
      for (let number = from; number <= to; number++) {
        const key = pageKey(prefix, number);
        if (await files.exists(key)) continue;
        const photoIds =
          number === 0 ? [book.cover.photoId] : book.pages[number - 1].photos.map((slot) => slot.photoId);
        for (const photoId of photoIds) {
          const original = photoId && originals.get(photoId);
          if (original && !photoFiles[photoId]) photoFiles[photoId] = await files.localFile(original, scratch);
        }
        const outFile = path.join(scratch, `page-${number}.jpg`);
        const placements = await timeRender(number === 0 ? 'cover_sheet' : 'print_page', () =>
          this.renderer.render({
            bookKey: lineId,
            format,
            colorCorrection,
            photoFiles,
            outFile,
            ...(number === 0
              ? { cover: { cover: book.cover, geometry: geometryOf(line) } }
              : { page: book.pages[number - 1] }),
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
    if (warnings.length > 0) {
      await em.fork().transactional(async (tx) => {
        // Chunks of one line render in parallel: the row lock keeps one chunk's warnings from overwriting another's.
        const locked = await tx.findOneOrFail(OrderLine, { id: lineId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
        const known = new Set(locked.warnings.map((w) => `${w.page}:${w.photoId}`));
        locked.warnings = [...locked.warnings, ...warnings.filter((w) => !known.has(`${w.page}:${w.photoId}`))];
      });
    }
    return { rendered };
  }

  /** `cover.pdf` (the sheet, and a small preview of it) and `interior.pdf` (the pages), streamed from the page files, and the manifest naming both. */
  async assemblePrintFiles(
    em: EntityManager,
    lineId: string,
  ): Promise<{ coverPdfKey: string; pdfKey: string; manifestKey: string; pageCount: number }> {
    const { files } = this.deps;
    const line = await loadLine(em, lineId);
    const prefix = printFilesPrefix(line);
    const coverPdfKey = `${prefix}/${COVER_PDF_FILE}`;
    const pdfKey = `${prefix}/${INTERIOR_PDF_FILE}`;
    const manifestKey = `${prefix}/manifest.json`;
    const pageCount = line.project.book!.pages.length;
    // The manifest is written last; a line assembled before cover sheets existed has one but no cover.pdf.
    const assembled =
      (await files.exists(manifestKey)) && (await files.exists(coverPdfKey)) && (await files.exists(pdfKey));
    if (!assembled)
      await timeRender('print_files', async () => {
        const format = line.project.product.specifications.format;
        const geometry = geometryOf(line);
        const title = line.project.book!.cover.title;
        await files.put(coverPreviewKeyOf(coverPdfKey), await coverSheetPreview(await files.get(pageKey(prefix, 0))));
        const coverPdf = await writePdf(files, coverPdfKey, {
          format: coverSheetFormat(geometry, format.dpi),
          pages: readPages(files, [pageKey(prefix, 0)]),
          title,
        });
        const interiorKeys = Array.from({ length: pageCount }, (_, n) => pageKey(prefix, n + 1));
        const interiorPdf = await writePdf(files, pdfKey, { format, pages: readPages(files, interiorKeys), title });
        const manifest = buildManifest({
          orderId: line.order.orderId,
          projectId: line.project.id,
          sku: line.sku,
          quantity: line.quantity,
          format,
          geometry,
          coverPdf,
          interiorPdf,
          warnings: line.warnings,
        });
        await files.put(manifestKey, Buffer.from(JSON.stringify(manifest, null, 2)));
      });
    await em.fork().nativeUpdate(OrderLine, { id: lineId }, { coverPdfKey, pdfKey, manifestKey, pageCount });
    return { coverPdfKey, pdfKey, manifestKey, pageCount };
  }

  /** Hands the files to the line's printer; the same job twice is one job. The sandbox printer's steps come back for the flow to walk. */
  async submitPrintJob(
    em: EntityManager,
    lineId: string,
  ): Promise<{ jobId: string; sandboxSteps?: { status: OrderStatus; trackingUrl?: string; parcels?: Parcel[] }[] }> {
    const line = await loadLine(em, lineId);
    const { order } = line;
    const printer = this.deps.printers.printerFor({ psp: line.psp, env: order.env });
    const { jobId } = await printer.submit({
      jobKey: printJobKeyOf(line),
      orderId: order.orderId,
      projectId: line.project.id,
      psp: line.psp,
      quantity: line.quantity,
      coverPdfKey: line.coverPdfKey!,
      pdfKey: line.pdfKey!,
      manifestKey: line.manifestKey!,
      sku: line.sku,
      ...(order.email ? { contactEmail: order.email } : {}),
      ...(line.pageCount ? { pageCount: line.pageCount } : {}),
      ...(line.project.product.partnerProducts ? { partnerProducts: line.project.product.partnerProducts } : {}),
      ...(order.shippingLevel ? { shippingLevel: order.shippingLevel } : {}),
      shipping: printerShipping(order),
    });
    await em.fork().nativeUpdate(OrderLine, { id: lineId }, { printerJobId: jobId, printerJobSentAt: new Date() });
    this.deps.log.info(
      { orderId: order.orderId, projectId: line.project.id, jobId, printer: printer.kind },
      'print job submitted',
    );
    return printer.kind === 'sandbox'
      ? {
          jobId,
          sandboxSteps: SANDBOX_PRINTER_STEPS.map((status) => ({
            status,
            ...(status === 'delivering'
              ? { trackingUrl: sandboxTrackingUrl(jobId), parcels: sandboxParcels(jobId, line.quantity) }
              : {}),
          })),
        }
      : { jobId };
  }
}

function loadLine(em: EntityManager, lineId: string): Promise<OrderLine> {
  return em.findOneOrFail(
    OrderLine,
    { id: lineId },
    { populate: ['order', 'project', 'project.product', 'project.book'] },
  );
}

/** The cover sheet of the line's book: the product's binding around this book's page count. */
function geometryOf(line: OrderLine): CoverGeometry {
  const { specifications } = line.project.product;
  return coverGeometry(specifications.format, specifications.production, line.project.book!.pages.length);
}

/** The order's recipient as printers address a parcel. */
function printerShipping(order: Order): PrintJob['shipping'] {
  const address = order.shippingAddress;
  return {
    name: [order.firstName, order.lastName].filter(Boolean).join(' '),
    line1: address.line1,
    line2: address.line2,
    postcode: address.postcode,
    city: address.city,
    state: address.state,
    countryIso2: address.isoCode2,
    company: address.company,
    phone: order.telephone ?? undefined,
  };
}

/**
 * Page 0 is the cover sheet, `cover-sheet.jpg`: a name of its own, so a line rendered before cover
 * sheets existed (its front cover was `0000.jpg`, at the page size) renders its sheet afresh.
 * Interior pages keep their number.
 */
function pageKey(prefix: string, number: number): string {
  return number === 0 ? `${prefix}/pages/cover-sheet.jpg` : `${prefix}/pages/${String(number).padStart(4, '0')}.jpg`;
}

/** Streams a book PDF into the store under `key`: it appears whole or not at all. */
async function writePdf(
  files: FileStore,
  key: string,
  options: Omit<Parameters<typeof writeBookPdf>[0], 'write'>,
): Promise<BookPdf> {
  let pdf: BookPdf | undefined;
  await files.putStreamed(key, async (write) => {
    pdf = await writeBookPdf({ ...options, write });
  });
  return pdf!;
}

/** Yields one page at a time: the PDF writer never holds more than the page it is writing. */
async function* readPages(files: FileStore, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield files.get(key);
}
