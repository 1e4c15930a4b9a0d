import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { OrderLine, Proof, type Order } from '../../db/entities';
import type { OrderStatus } from '../../domain/order-status';
import { moveProject } from '../../domain/project-status';
import type { FileStore } from '../../storage/file-store';
import type { PrinterRegistry } from '../../printers/printer-registry';
import {
  PrinterRefusedCancel,
  PrinterRejectedJob,
  PrinterUnavailable,
  type Printer,
  type PrintJob,
} from '../../printers/printer';
import { isRejectionOfOurData } from '../routing/printer-failover';
import { recordRoutingDecision } from '../routing/line-routing';
import type { RoutingDecision } from '../../domain/print-routing';
import { SANDBOX_PRINTER_STEPS, sandboxParcels, sandboxTrackingUrl } from '../../printers/sandbox-printer';
import type { Parcel } from '../../domain/parcel';
import { buildManifest, COVER_PDF_FILE, INTERIOR_PDF_FILE } from '../../imaging/print/manifest';
import { coverPreviewKeyOf, printFilesPrefix } from '../orders/print-files';
import { photoOriginals } from '../projects/book-revision';
import { PhotoFaces } from '../projects/photo-faces';
import { FaceFinding } from '../projects/face-finding';
import { BookRenderer, geometryOfBook, type BookToRender } from './book-render';
import { proofFileKey } from './proof-files';
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
  private readonly renderer: BookRenderer;
  private readonly faces: PhotoFaces;

  constructor(private readonly deps: BookProductionDeps) {
    this.renderer = new BookRenderer(deps.files);
    this.faces = new PhotoFaces(deps.files, new FaceFinding(deps.log));
  }

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
    // A remake prints the files of the order it remakes: it needs no book, whatever became of the project.
    if (carriesRemadeFiles(line)) return { state: 'ready' };
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

  /**
   * Interior pages to render; page 0 is the cover sheet. `filesReady`: a remake, whose print files
   * are the original's (the same keys, the same bytes): nothing is rendered or assembled. A line
   * printed from its proof renders nothing either, but is assembled (the proof's files are copied).
   */
  async planRender(em: EntityManager, lineId: string): Promise<{ pages: number; filesReady: boolean }> {
    const line = await loadLine(em, lineId);
    if (carriesRemadeFiles(line)) return { pages: line.pageCount!, filesReady: true };
    if (await proofOf(em, lineId)) return { pages: 0, filesReady: false };
    return { pages: line.project.book?.pages.length ?? 0, filesReady: false };
  }

  /**
   * Renders pages [from, to] at print resolution (0: the cover sheet, sized for this book's page
   * count), skipping pages already in the store, and records the photos that will print soft on
   * the line. A line printed from its proof renders nothing: the proof's files are its files.
   */
  async renderPages(em: EntityManager, lineId: string, from: number, to: number): Promise<{ rendered: number }> {
    const line = await loadLine(em, lineId);
    if (await proofOf(em, lineId)) return { rendered: 0 };
    const { rendered, warnings } = await this.renderer.renderPages(await this.bookOfLine(em, line), from, to);
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

  /**
   * `cover.pdf` (the sheet, and a small preview of it) and `interior.pdf` (the pages), and the
   * manifest naming both. A line printed from its proof takes the proof's files, byte for byte
   * (copied into the line's folder, then the proof's copies go: they belong to the order now),
   * and its manifest carries the proof's checksums.
   */
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
    if (!assembled) {
      const proof = await proofOf(em, lineId);
      await timeRender('print_files', async () => {
        const format = line.project.product.specifications.format;
        let coverPdf: Proof['coverPdf'];
        let interiorPdf: Proof['interiorPdf'];
        let warnings = line.warnings;
        if (proof) {
          for (const [name, key] of [
            [COVER_PDF_FILE, coverPdfKey],
            [INTERIOR_PDF_FILE, pdfKey],
            ['cover-preview.jpg', coverPreviewKeyOf(coverPdfKey)],
          ] as const) {
            if (!(await files.exists(key))) await files.copy(proofFileKey(proof, name), key);
          }
          ({ coverPdf, interiorPdf, warnings } = proof);
        } else {
          ({ coverPdf, interiorPdf } = await this.renderer.assemble(await this.bookOfLine(em, line)));
        }
        const manifest = buildManifest({
          orderId: line.order.orderId,
          projectId: line.project.id,
          sku: line.sku,
          quantity: line.quantity,
          format,
          geometry: geometryOfBook(line.project.product, line.project.book!),
          coverPdf,
          interiorPdf,
          warnings,
        });
        await files.put(manifestKey, Buffer.from(JSON.stringify(manifest, null, 2)));
        if (proof) {
          for (const name of [COVER_PDF_FILE, INTERIOR_PDF_FILE, 'cover-preview.jpg'])
            await files.removeTree(proofFileKey(proof, name));
        }
      });
    }
    await em.fork().nativeUpdate(OrderLine, { id: lineId }, { coverPdfKey, pdfKey, manifestKey, pageCount });
    return { coverPdfKey, pdfKey, manifestKey, pageCount };
  }

  /**
   * Offers the line's job to one printer of its routing, for at most `timeoutMs`. The same job twice
   * is one job (the printer dedupes by job key). `accepted`: the printer holds it, and the line names
   * that printer and its job id; `rejected`: the printer refused it for a reason another printer may
   * not share; `unavailable`: no answer in time, or "not now". A refusal of our own data
   * (printer-failover.ts) is thrown as the PrinterRejectedJob it is: no other printer would take it.
   * The sandbox printer's steps come back for the flow to walk.
   */
  async submitPrintJob(
    em: EntityManager,
    lineId: string,
    printerName: string,
    timeoutMs: number,
  ): Promise<PrinterAttempt> {
    const line = await loadLine(em, lineId);
    const { order } = line;
    const printer = await this.deps.printers.printerNamed(printerName, { tenantId: order.client.id, env: order.env });
    if (!printer) return { outcome: 'rejected', reason: `printer ${printerName} is not available to this shop here` };
    const attempt = await offer(printer, jobOf(line), timeoutMs, `printer ${printerName}`);
    if (attempt.outcome !== 'accepted') return attempt;
    const { jobId } = attempt;
    await em
      .fork()
      .nativeUpdate(
        OrderLine,
        { id: lineId },
        { printerJobId: jobId, printerJobSentAt: new Date(), printer: printerName },
      );
    // Left behind on an earlier round and taking the job now: it is the one printer that prints it.
    if (line.routing?.pendingWithdrawals.includes(printerName))
      await recordRoutingDecision(em, lineId, undefined, (routing) => ({
        ...routing,
        pendingWithdrawals: routing.pendingWithdrawals.filter((p) => p !== printerName),
      }));
    this.deps.log.info(
      { orderId: order.orderId, projectId: line.project.id, jobId, printer: printerName },
      'print job submitted',
    );
    return printer.kind === 'sandbox'
      ? {
          outcome: 'accepted',
          jobId,
          sandboxSteps: SANDBOX_PRINTER_STEPS.map((status) => ({
            status,
            ...(status === 'delivering'
              ? { trackingUrl: sandboxTrackingUrl(jobId), parcels: sandboxParcels(jobId, line.quantity) }
              : {}),
          })),
        }
      : { outcome: 'accepted', jobId };
  }

  /** The printer that takes the line's book: its output decides the pages' colour and the PDFs' flavour. */
  private printerOf(line: OrderLine) {
    return this.deps.printers.printerFor({ psp: line.psp, env: line.order.env });
  }

  /** The line's book as the renderer takes it: its files go to the line's folder, in its printer's output. */
  private async bookOfLine(em: EntityManager, line: OrderLine): Promise<BookToRender> {
    return {
      prefix: printFilesPrefix(line),
      bookKey: line.id,
      book: line.project.book!,
      product: line.project.product,
      colorCorrection: line.metadata.colorCorrection === true,
      originals: await photoOriginals(em, line.project),
      faces: await this.faces.ofProject(em, line.project),
      output: this.printerOf(line).output,
    };
  }

  /**
   * Takes the line's job back from a printer failover left behind, which may have created it while
   * it kept us waiting: the job is offered again under its key (the printer answers the job it
   * holds, or makes one) and that job is cancelled. `done` once the printer holds no job of the line
   * (cancelled there: a `late_acceptance_cancelled` decision; or it refuses the job outright); not
   * done while it cannot be asked, to be tried again. A printer that will not cancel (production
   * started) is a `late_acceptance_refused` decision, logged as an error for the operator.
   */
  async withdrawPrintJob(
    em: EntityManager,
    lineId: string,
    printerName: string,
    timeoutMs: number,
  ): Promise<{ done: boolean }> {
    const line = await loadLine(em, lineId);
    const { order } = line;
    const settle = (decision?: Omit<RoutingDecision, 'at'>) =>
      recordRoutingDecision(em, lineId, decision, (routing) => ({
        ...routing,
        pendingWithdrawals: routing.pendingWithdrawals.filter((p) => p !== printerName),
      })).then(() => ({ done: true }));
    const printer = await this.deps.printers.printerNamed(printerName, { tenantId: order.client.id, env: order.env });
    if (!printer || line.printer === printerName) return settle();
    const job = jobOf(line);
    let attempt: PrinterAttempt;
    try {
      attempt = await offer(printer, job, timeoutMs, `printer ${printerName}`);
    } catch (error) {
      if (error instanceof PrinterRejectedJob) return settle();
      throw error;
    }
    if (attempt.outcome === 'rejected') return settle();
    if (attempt.outcome === 'unavailable') return { done: false };
    const { jobId } = attempt;
    try {
      await printer.cancel({ jobId, jobKey: job.jobKey, orderId: job.orderId, projectId: job.projectId });
    } catch (error) {
      if (error instanceof PrinterRefusedCancel) {
        this.deps.log.error(
          { orderId: order.orderId, projectId: line.project.id, jobId, printer: printerName },
          'a printer left behind by failover will not cancel the job it took late',
        );
        return settle({ decision: 'late_acceptance_refused', printer: printerName, jobId, reason: error.message });
      }
      if (error instanceof PrinterUnavailable) return { done: false };
      throw error;
    }
    this.deps.log.info(
      { orderId: order.orderId, projectId: line.project.id, jobId, printer: printerName },
      'late print job cancelled',
    );
    return settle({ decision: 'late_acceptance_cancelled', printer: printerName, jobId });
  }
}

/** What one offer of a job to one printer came to. */
export type PrinterAttempt =
  | {
      outcome: 'accepted';
      jobId: string;
      sandboxSteps?: { status: OrderStatus; trackingUrl?: string; parcels?: Parcel[] }[];
    }
  | { outcome: 'rejected'; reason: string }
  | { outcome: 'unavailable'; reason: string; retryAfterMs?: number };

/**
 * One submit, bounded by `timeoutMs`: a printer that has not answered by then is unavailable (its
 * request may go on in the background and is then ignored; the job it may have made is withdrawn by
 * the flow). Our own invalid data is thrown.
 */
async function offer(printer: Printer, job: PrintJob, timeoutMs: number, what: string): Promise<PrinterAttempt> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<PrinterAttempt>((resolve) => {
    timer = setTimeout(
      () => resolve({ outcome: 'unavailable', reason: `${what} did not accept the job within ${timeoutMs} ms` }),
      timeoutMs,
    );
  });
  const answered = printer.submit(job).then(
    ({ jobId }): PrinterAttempt => ({ outcome: 'accepted', jobId }),
    (error: unknown): PrinterAttempt => {
      if (error instanceof PrinterRejectedJob) {
        if (isRejectionOfOurData(error)) throw error;
        return { outcome: 'rejected', reason: error.message };
      }
      if (error instanceof PrinterUnavailable)
        return {
          outcome: 'unavailable',
          reason: error.message,
          ...(error.retryAfterSeconds !== undefined ? { retryAfterMs: error.retryAfterSeconds * 1000 } : {}),
        };
      throw error;
    },
  );
  try {
    return await Promise.race([answered, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The job a printer gets for a line. */
function jobOf(line: OrderLine): PrintJob {
  const { order } = line;
  return {
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
  };
}

/** A remake's line: written with the print files of the line it remakes (src/services/orders/claim-order.ts). */
function carriesRemadeFiles(line: OrderLine): boolean {
  return !!line.order.remakeOf && !!line.pdfKey && !!line.manifestKey && line.pageCount != null;
}

function loadLine(em: EntityManager, lineId: string): Promise<OrderLine> {
  return em.findOneOrFail(
    OrderLine,
    { id: lineId },
    { populate: ['order', 'project', 'project.product', 'project.book'] },
  );
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

/** The proof the line's order holds it to, if any (`projects[].proofId`). */
function proofOf(em: EntityManager, lineId: string): Promise<Proof | null> {
  return em.findOne(Proof, { orderLine: lineId }, { populate: ['project'] });
}
