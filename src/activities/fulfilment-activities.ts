import { access, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from 'pino';
import { OrderLine, Photo } from '../db/entities';
import type { PrintWarning } from '../domain/print-warning';
import type { FileStore } from '../storage/file-store';
import type { PrinterRegistry } from '../printers/printer-registry';
import { SANDBOX_PRINTER_STEPS, sandboxParcels, sandboxTrackingUrl } from '../printers/sandbox-printer';
import type { Parcel } from '../domain/parcel';
import { PrintRenderProcess } from '../imaging/print/render-process';
import { writeBookPdf } from '../imaging/print/book-pdf';
import { buildManifest } from '../imaging/print/manifest';
import { moveOrderLine } from '../services/orders/order-line-status';
import { isFinalOrderStatus, type OrderStatus } from '../domain/order-status';
import { moveProject } from '../domain/project-status';
import { recordProjectStatus } from '../services/projects/project-events';
import { printFilesPrefix } from '../services/orders/print-files';
import { emForOrderLine } from './tenant-scope';

export interface FulfilmentActivityDeps {
  orm: MikroORM;
  files: FileStore;
  printers: PrinterRegistry;
  log: Logger;
}

/**
 * The steps of printing one order line. Idempotent: rendered pages, the PDF and the manifest are
 * files keyed by order, project and page, skipped when present; the printer dedupes by job key;
 * status moves that already happened are no-ops.
 */
export function createFulfilmentActivities({ orm, files, printers, log }: FulfilmentActivityDeps) {
  const renderer = new PrintRenderProcess();
  /** A fork scoped to the line's tenant. Order lines are never deleted while their flow runs. */
  const emFor = async (lineId: string) => {
    const em = await emForOrderLine(orm, lineId);
    if (!em) throw new Error(`order line ${lineId} does not exist`);
    return em;
  };
  const loadLine = async (lineId: string, em?: EntityManager) =>
    (em ?? (await emFor(lineId))).findOneOrFail(OrderLine, { id: lineId }, { populate: ['order', 'project', 'project.product', 'project.book'] });

  return {
    /** ready: the project's book is built; pending: still building; gone: deleted meanwhile. */
    async checkAssets(lineId: string): Promise<{ state: 'ready' | 'pending' | 'gone' }> {
      const em = await emFor(lineId);
      const line = await em.findOneOrFail(OrderLine, { id: lineId }, { populate: ['order', 'project', 'project.owner', 'project.book'] });
      const project = line.project;
      if (project.status === 'deleted') return { state: 'gone' };
      if (project.status === 'created' || project.status === 'building' || !project.book) return { state: 'pending' };
      if (project.status === 'editable') {
        await em.transactional(async (tx) => {
          moveProject(project, 'ordering');
          await recordProjectStatus(tx, project);
        });
      }
      return { state: 'ready' };
    },

    async getLineStatus(lineId: string): Promise<{ status: OrderStatus; final: boolean }> {
      const line = await (await emFor(lineId)).findOneOrFail(OrderLine, { id: lineId });
      return { status: line.status, final: isFinalOrderStatus(line.status) };
    },

    async setLineStatus(lineId: string, status: OrderStatus, trackingUrl?: string, parcels?: Parcel[]): Promise<{ moved: boolean; status: OrderStatus; final: boolean }> {
      const result = await moveOrderLine(await emFor(lineId), lineId, { status, trackingUrl, parcels });
      return { ...result, final: isFinalOrderStatus(result.status) };
    },

    async planRender(lineId: string): Promise<{ pages: number }> {
      const line = await loadLine(lineId);
      return { pages: line.project.book?.pages.length ?? 0 };
    },

    /** Renders the cover and interior pages [from, to] at print resolution, skipping pages already on disk. */
    async renderPages(lineId: string, from: number, to: number): Promise<{ rendered: number }> {
      const em = await emFor(lineId);
      const line = await loadLine(lineId, em);
      const { project } = line;
      const book = project.book!;
      const format = project.product.specifications.format;
      const prefix = printFilesPrefix(line);
      const colorCorrection = line.metadata.colorCorrection === true;
      const photoFiles: Record<string, string> = {};
      for (const photo of await em.find(Photo, { project })) if (photo.originalKey) photoFiles[photo.id] = files.pathOf(photo.originalKey);
      const warnings: PrintWarning[] = [];
      let rendered = 0;
      for (let number = from; number <= to; number++) {
        const key = `${prefix}/pages/${pageName(number)}.jpg`;
        if (await exists(files, key)) continue;
        const placements = await renderer.render({
          bookKey: lineId,
          format,
          colorCorrection,
          photoFiles,
          outFile: files.pathOf(key),
          ...(number === 0 ? { cover: book.cover } : { page: book.pages[number - 1] }),
        });
        rendered++;
        for (const placement of placements) {
          if (placement.warning) {
            warnings.push({ page: number === 0 ? 'cover' : number, photoId: placement.photoId, effectiveDpi: Math.round(placement.effectiveDpi), message: placement.warning });
          }
        }
      }
      if (warnings.length > 0) {
        await em.fork().transactional(async (tx) => {
          const locked = await tx.findOneOrFail(OrderLine, { id: lineId });
          const known = new Set(locked.warnings.map((w) => `${w.page}:${w.photoId}`));
          locked.warnings = [...locked.warnings, ...warnings.filter((w) => !known.has(`${w.page}:${w.photoId}`))];
        });
      }
      return { rendered };
    },

    /** One PDF (cover, then interior pages) streamed from the page files, and its manifest. */
    async assemblePrintFiles(lineId: string): Promise<{ pdfKey: string; manifestKey: string; pageCount: number }> {
      const em = await emFor(lineId);
      const line = await loadLine(lineId, em);
      const prefix = printFilesPrefix(line);
      const pdfKey = `${prefix}/book.pdf`;
      const manifestKey = `${prefix}/manifest.json`;
      const pageCount = line.project.book!.pages.length;
      if (!(await exists(files, manifestKey))) {
        const format = line.project.product.specifications.format;
        const pageKeys = Array.from({ length: pageCount + 1 }, (_, n) => `${prefix}/pages/${pageName(n)}.jpg`);
        await mkdir(path.dirname(files.pathOf(pdfKey)), { recursive: true });
        const pdf = await writeBookPdf({ path: files.pathOf(pdfKey), format, pages: readPages(files, pageKeys) });
        const manifest = buildManifest({
          orderId: line.order.orderId,
          projectId: line.project.id,
          sku: line.sku,
          quantity: line.quantity,
          format,
          pdf,
          warnings: line.warnings,
        });
        await files.put(manifestKey, Buffer.from(JSON.stringify(manifest, null, 2)));
      }
      await em.fork().nativeUpdate(OrderLine, { id: lineId }, { pdfKey, manifestKey, pageCount });
      return { pdfKey, manifestKey, pageCount };
    },

    /** Hands the files to the project's printer; the same job twice is one job. */
    async submitPrintJob(lineId: string): Promise<{ jobId: string; sandboxSteps?: { status: OrderStatus; trackingUrl?: string; parcels?: Parcel[] }[] }> {
      const em = await emFor(lineId);
      const line = await loadLine(lineId, em);
      const { order } = line;
      const printer = printers.printerFor({ psp: line.psp, env: order.env });
      const address = order.shippingAddress;
      const { jobId } = await printer.submit({
        jobKey: `${order.id}:${line.project.id}`,
        orderId: order.orderId,
        projectId: line.project.id,
        psp: line.psp,
        quantity: line.quantity,
        pdfKey: line.pdfKey!,
        manifestKey: line.manifestKey!,
        shipping: {
          name: [order.firstName, order.lastName].filter(Boolean).join(' '),
          line1: address.line1,
          line2: address.line2,
          postcode: address.postcode,
          city: address.city,
          state: address.state,
          countryIso2: address.isoCode2,
          company: address.company,
          phone: order.telephone ?? undefined,
        },
      });
      await em.fork().nativeUpdate(OrderLine, { id: lineId }, { printerJobId: jobId });
      log.info({ orderId: order.orderId, projectId: line.project.id, jobId, printer: printer.kind }, 'print job submitted');
      return printer.kind === 'sandbox'
        ? {
            jobId,
            sandboxSteps: SANDBOX_PRINTER_STEPS.map((status) => ({
              status,
              ...(status === 'delivering' ? { trackingUrl: sandboxTrackingUrl(jobId), parcels: sandboxParcels(jobId, line.quantity) } : {}),
            })),
          }
        : { jobId };
    },
  };
}

export type FulfilmentActivities = ReturnType<typeof createFulfilmentActivities>;

/** Page 0 is the cover; interior pages keep their number. */
function pageName(number: number): string {
  return String(number).padStart(4, '0');
}

async function exists(files: FileStore, key: string): Promise<boolean> {
  try {
    await access(files.pathOf(key));
    return true;
  } catch {
    return false;
  }
}

/** Yields one page at a time: the PDF writer never holds more than the page it is writing. */
async function* readPages(files: FileStore, keys: string[]): AsyncGenerator<Buffer> {
  for (const key of keys) yield files.get(key);
}

